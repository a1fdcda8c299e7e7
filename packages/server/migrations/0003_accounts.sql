-- 0003: the app-side user profile, permissions, manager links, preferences and broker accounts.

-- An investment history is a JSON array of {"date": "YYYY-MM-DD", "amount_paise": <integer >= 0>}.
-- Spec section 5: the investment total uses the latest entry (greatest date) when there is one,
-- otherwise investment_amt_paise. Checked in SQL so no writer can store a shape the total
-- calculation would misread.
CREATE FUNCTION public.is_investment_history(history jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT jsonb_typeof(history) = 'array'
    AND NOT jsonb_path_exists(history,
      '$[*] ? (@.type() != "object"
               || !(exists(@.date)) || !(exists(@.amount_paise))
               || @.date.type() != "string" || !(@.date like_regex "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
               || @.amount_paise.type() != "number" || @.amount_paise < 0
               || @.amount_paise.floor() != @.amount_paise)');
$$;

-- The profile of spec section 3. One row per auth user who uses the app (anonymous sessions
-- get one when they first save something). `tier` is the product role and equals
-- auth.users.default_role for every non-anonymous user.
CREATE TABLE users (
  user_id uuid PRIMARY KEY REFERENCES auth.users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name <> ''),
  -- Public identifier for the user's API/webhook access; not a secret on its own.
  api_key text UNIQUE CHECK (api_key IS NULL OR api_key ~ '^vy_[0-9a-f]{32}$'),
  tier text NOT NULL DEFAULT 'trial' REFERENCES auth.roles (role) ON UPDATE CASCADE
    CHECK (tier IN ('trial', 'basic', 'advanced', 'demo', 'backtest',
                    'manager', 'administrator', 'superadmin', 'support')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The manager screen lists managed users ordered by name (spec section 7).
CREATE INDEX users_name_idx ON users (name);

CREATE TRIGGER users_set_updated_at BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Permissions of spec section 6; they go into the x-hasura-permissions claim.
CREATE TABLE user_permissions (
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  permission text NOT NULL CHECK (permission IN ('strategy:backtest', 'strategy:deploy', 'strategy:manual')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, permission)
);

CREATE TABLE managers (
  manager_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Serves "managers where manager_id = me" (spec section 7).
  PRIMARY KEY (manager_id, user_id),
  CONSTRAINT managers_not_self CHECK (manager_id <> user_id)
);

-- "Who manages this user?" (permission checks when a manager acts for someone).
CREATE INDEX managers_user_id_idx ON managers (user_id);

CREATE TABLE user_app_configs (
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  category text NOT NULL CHECK (category ~ '^[a-z][A-Za-z0-9_]*$'),
  subcategory text NOT NULL CHECK (subcategory ~ '^[a-z][A-Za-z0-9_]*$'),
  meta_data jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(meta_data) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The spec's key is {category, subcategory, user_id}; user_id leads so "all my configs" is an
  -- index prefix scan.
  PRIMARY KEY (user_id, category, subcategory)
);

CREATE TRIGGER user_app_configs_set_updated_at BEFORE UPDATE ON user_app_configs
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Supported brokers. A table rather than a CHECK list: adding a broker adapter adds a row.
CREATE TABLE brokers (
  broker text PRIMARY KEY CHECK (broker ~ '^[a-z0-9]+$'),
  name text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO brokers (broker, name) VALUES
  ('zerodha', 'Zerodha (Kite Connect)'),
  ('upstox', 'Upstox'),
  ('angelone', 'Angel One (SmartAPI)'),
  ('fyers', 'Fyers'),
  ('dhan', 'Dhan'),
  ('icicidirect', 'ICICI Direct (Breeze)'),
  ('kotakneo', 'Kotak Neo'),
  ('aliceblue', 'Alice Blue'),
  ('fivepaisa', '5paisa'),
  ('shoonya', 'Shoonya (Finvasia)'),
  ('iifl', 'IIFL Securities'),
  ('motilal', 'Motilal Oswal');

-- A user's account at a broker. The broker app's api_key is public (it appears in the broker's
-- login URL); the api_secret is stored only as ciphertext (AES-GCM or similar, done by the
-- server with a key from the environment) plus its nonce and the id of the key used, so keys
-- can be rotated. Broker sessions/access tokens get their own table in a later migration.
CREATE TABLE user_brokers (
  user_broker_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  broker text NOT NULL REFERENCES brokers (broker) ON UPDATE CASCADE,
  client_id text NOT NULL CHECK (client_id ~ '^[A-Za-z0-9_-]{2,32}$'),
  active boolean NOT NULL DEFAULT true,
  api_key text,
  api_secret_ciphertext bytea,
  api_secret_nonce bytea,
  api_secret_key_id text,
  investment_amt_paise bigint NOT NULL DEFAULT 0 CHECK (investment_amt_paise >= 0),
  investment_history jsonb NOT NULL DEFAULT '[]' CHECK (public.is_investment_history(investment_history)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A broker client account belongs to one person.
  UNIQUE (broker, client_id),
  -- Ciphertext, nonce and key id travel together or not at all.
  CONSTRAINT user_brokers_secret_complete CHECK (
    (api_secret_ciphertext IS NULL) = (api_secret_nonce IS NULL)
    AND (api_secret_ciphertext IS NULL) = (api_secret_key_id IS NULL))
);

-- user.user_brokers relationship and the "active brokers only" investment total.
CREATE INDEX user_brokers_user_id_idx ON user_brokers (user_id, active);

CREATE TRIGGER user_brokers_set_updated_at BEFORE UPDATE ON user_brokers
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Small key/value facts about the installation (e.g. which demo world version was seeded).
CREATE TABLE app_meta (
  key text PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_.]*$'),
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TRIGGER app_meta_set_updated_at BEFORE UPDATE ON app_meta
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

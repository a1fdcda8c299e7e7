-- 0001: extensions, shared trigger functions and the `auth` schema.
--
-- The auth tables follow the shape of Nhost's hasura-auth so that its API (AUTH.md) maps onto
-- them one to one. Differences from hasura-auth are deliberate and listed in docs/DATA-MODEL.md
-- (refresh tokens are stored only as hashes, with a family id and used/revoked markers; an
-- outbox replaces direct e-mail/SMS sending).

-- citext gives case-insensitive e-mail uniqueness without asking every query to lower() it.
CREATE EXTENSION IF NOT EXISTS citext;

-- Keeps updated_at honest without trusting every writer; a no-op update keeps the old stamp so
-- idempotent upserts do not look like changes.
CREATE FUNCTION public.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    NEW.updated_at := now();
  ELSE
    NEW.updated_at := OLD.updated_at;
  END IF;
  RETURN NEW;
END;
$$;

-- One function for every "this table never changes" rule; the message comes from the trigger
-- definition so each table can say why.
CREATE FUNCTION public.refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0]
    USING ERRCODE = 'insufficient_privilege',
          DETAIL = format('%s on %I.%I was refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME);
END;
$$;

CREATE SCHEMA auth;

-- Every role a session may carry. `user`, `me` and `anonymous` are hasura-auth's own; the nine
-- tiers are the product roles of spec section 6.
CREATE TABLE auth.roles (
  role text PRIMARY KEY CHECK (role ~ '^[a-z][a-z0-9_-]*$')
);

INSERT INTO auth.roles (role) VALUES
  ('user'), ('me'), ('anonymous'),
  ('trial'), ('basic'), ('advanced'), ('demo'), ('backtest'),
  ('manager'), ('administrator'), ('superadmin'), ('support');

CREATE TABLE auth.users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz,
  disabled boolean NOT NULL DEFAULT false,
  display_name text NOT NULL DEFAULT '' CHECK (char_length(display_name) <= 64),
  avatar_url text NOT NULL DEFAULT '',
  locale varchar(2) NOT NULL DEFAULT 'en' CHECK (locale ~ '^[a-z]{2}$'),
  email citext UNIQUE CHECK (email IS NULL OR email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  phone_number text UNIQUE CHECK (phone_number IS NULL OR phone_number ~ '^\+?[0-9]{6,15}$'),
  password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  phone_number_verified boolean NOT NULL DEFAULT false,
  new_email citext,
  otp_method_last_used text CHECK (otp_method_last_used IN ('sms', 'email')),
  otp_hash text,
  otp_hash_expires_at timestamptz NOT NULL DEFAULT now(),
  default_role text NOT NULL DEFAULT 'user' REFERENCES auth.roles (role) ON UPDATE CASCADE,
  is_anonymous boolean NOT NULL DEFAULT false,
  totp_secret text,
  active_mfa_type text CHECK (active_mfa_type IN ('totp')),
  ticket text UNIQUE,
  ticket_expires_at timestamptz NOT NULL DEFAULT now(),
  webauthn_current_challenge text,
  metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
  -- An anonymous user has no identity yet; everyone else needs some way to sign in again.
  CONSTRAINT users_identity_present CHECK (is_anonymous OR email IS NOT NULL OR phone_number IS NOT NULL),
  -- TOTP can only be active once a secret has been generated.
  CONSTRAINT users_totp_needs_secret CHECK (active_mfa_type IS NULL OR totp_secret IS NOT NULL)
);

CREATE TRIGGER users_set_updated_at BEFORE UPDATE ON auth.users
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE auth.user_roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  role text NOT NULL REFERENCES auth.roles (role) ON UPDATE CASCADE,
  UNIQUE (user_id, role)
);

-- Refresh tokens and personal access tokens. Only a SHA-256 hash of the secret is stored, so a
-- database leak does not leak sessions. Rotation marks the old token used; reusing a used
-- token revokes the whole family (AUTH.md).
CREATE TABLE auth.refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  refresh_token_hash bytea NOT NULL UNIQUE CHECK (octet_length(refresh_token_hash) = 32),
  family_id uuid NOT NULL,
  type text NOT NULL DEFAULT 'regular' CHECK (type IN ('regular', 'pat')),
  metadata jsonb CHECK (metadata IS NULL OR jsonb_typeof(metadata) = 'object'),
  used_at timestamptz,
  revoked_at timestamptz,
  CHECK (expires_at > created_at)
);

CREATE INDEX refresh_tokens_user_id_idx ON auth.refresh_tokens (user_id);
CREATE INDEX refresh_tokens_family_id_idx ON auth.refresh_tokens (family_id);
-- Serves the periodic purge of expired tokens.
CREATE INDEX refresh_tokens_expires_at_idx ON auth.refresh_tokens (expires_at);

CREATE TABLE auth.providers (
  id text PRIMARY KEY CHECK (id ~ '^[a-z][a-z0-9_-]*$')
);

INSERT INTO auth.providers (id) VALUES
  ('google'), ('github'), ('apple'), ('azuread'), ('linkedin'), ('facebook'), ('discord');

CREATE TABLE auth.user_providers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  provider_id text NOT NULL REFERENCES auth.providers (id) ON UPDATE CASCADE,
  provider_user_id text NOT NULL,
  -- hasura-auth keeps the provider's tokens; they are optional here because sign-in only needs
  -- the provider user id.
  access_token text,
  refresh_token text,
  UNIQUE (user_id, provider_id),
  UNIQUE (provider_id, provider_user_id)
);

CREATE TRIGGER user_providers_set_updated_at BEFORE UPDATE ON auth.user_providers
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- OAuth `state` -> the sign-in options given when the redirect started.
CREATE TABLE auth.provider_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  options jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(options) = 'object')
);

CREATE INDEX provider_requests_created_at_idx ON auth.provider_requests (created_at);

-- WebAuthn credentials.
CREATE TABLE auth.user_security_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  credential_public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text NOT NULL DEFAULT '',
  nickname text
);

CREATE INDEX user_security_keys_user_id_idx ON auth.user_security_keys (user_id);

-- E-mail and SMS leave through this outbox: the request that wants a message only inserts a row
-- inside its own transaction, and a job sends it, so a rolled-back sign-up never sends mail.
CREATE TABLE auth.outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient text NOT NULL CHECK (recipient <> ''),
  subject text,
  body text NOT NULL,
  template text,
  user_id uuid REFERENCES auth.users (id) ON DELETE SET NULL,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  sent_at timestamptz,
  error text,
  -- SMS has no subject line; e-mail must have one.
  CHECK ((channel = 'email') = (subject IS NOT NULL))
);

-- The sender polls for unsent messages oldest first.
CREATE INDEX outbox_unsent_idx ON auth.outbox (created_at) WHERE sent_at IS NULL;

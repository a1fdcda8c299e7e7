-- 0011: broker sessions: the access token a broker issues after its daily login.
--
-- One session per broker account: logging in again replaces it. The token is a credential that
-- can place orders, so it is stored like the API secret (0003): AES-256-GCM ciphertext with its
-- 16-byte tag, the nonce, and the id of the key that encrypted it. Server-only: never exposed
-- through GraphQL. Kite tokens die at 06:00 IST the next morning whatever happens; `expires_at`
-- holds that moment so a reader never tries a dead token.
CREATE TABLE broker_sessions (
  user_broker_id uuid PRIMARY KEY REFERENCES user_brokers (user_broker_id) ON DELETE CASCADE,
  access_token_ciphertext bytea NOT NULL,
  access_token_nonce bytea NOT NULL,
  access_token_key_id text NOT NULL,
  -- The broker's own id for the signed-in user (Kite: user_id, e.g. "AB1234").
  broker_user_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Computed by the adapter from the login time (no CHECK against created_at: the two clocks
  -- may differ by a moment around 06:00 IST).
  expires_at timestamptz NOT NULL
);

-- Convention of 0009: every new table notifies live queries of its changes (none reads this one
-- today; the trigger costs one NOTIFY per statement and keeps the rule without exceptions).
SELECT public.watch_table_changes('public.broker_sessions');

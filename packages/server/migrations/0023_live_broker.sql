-- 0023: what LIVE trading through a broker needs (packages/server/src/brokers/kite/, docs/BROKER-KITE.md).
--
-- - broker_instruments: the broker's daily instruments dump (Kite: GET /instruments), one row per
--   broker token, mapped to our instrument when we have it. The ticker speaks tokens and the order
--   API speaks the broker's trading symbols; both are looked up here. A new day's dump replaces the
--   broker's rows (F&O tokens change with every expiry); broker_instrument_dumps says which day's
--   dump is stored.
-- - broker_requests: the audit trail of every request the platform sent a broker and its answer,
--   secrets redacted by the adapter before the row is written, kept per order (order_id) and per
--   broker account. The exchanges' algo rules ask for an audit trail of orders and their changes.
-- - broker_sessions.invalidated_at / invalid_reason: a session the broker stopped accepting before
--   its expires_at (a logout elsewhere, a TokenException mid-day), or one the user disconnected.
-- - trading_alerts: what the runtime tells a user it did or could not do on their account (an
--   unexplained broker position paused their strategies, the broker session died, margin was short),
--   until they acknowledge it.

CREATE TABLE broker_instrument_dumps (
  broker text NOT NULL REFERENCES brokers (broker) ON UPDATE CASCADE,
  dump_date date NOT NULL,
  downloaded_at timestamptz NOT NULL DEFAULT now(),
  row_count integer NOT NULL CHECK (row_count >= 0),
  mapped_count integer NOT NULL CHECK (mapped_count >= 0 AND mapped_count <= row_count),
  PRIMARY KEY (broker, dump_date)
);

CREATE TABLE broker_instruments (
  broker text NOT NULL REFERENCES brokers (broker) ON UPDATE CASCADE,
  -- Kite: the ticker's key; its low byte is the segment (docs/BROKER-KITE.md).
  instrument_token bigint NOT NULL CHECK (instrument_token > 0),
  exchange_token text NOT NULL,
  trading_symbol text NOT NULL CHECK (trading_symbol <> ''),
  name text NOT NULL DEFAULT '',
  exchange text NOT NULL,
  segment text NOT NULL,
  instrument_type text NOT NULL,
  expiry date,
  strike_paise bigint CHECK (strike_paise >= 0),
  tick_size_paise integer NOT NULL CHECK (tick_size_paise >= 0),
  lot_size integer NOT NULL CHECK (lot_size >= 0),
  -- Our contract, when the dump row is one we trade or chart; NULL otherwise.
  instrument_id integer REFERENCES instruments (instrument_id) ON DELETE SET NULL,
  dump_date date NOT NULL,
  PRIMARY KEY (broker, instrument_token),
  UNIQUE (broker, exchange, trading_symbol)
);

CREATE UNIQUE INDEX broker_instruments_ours_idx ON broker_instruments (broker, instrument_id)
  WHERE instrument_id IS NOT NULL;

CREATE TABLE broker_requests (
  broker_request_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  user_broker_id uuid REFERENCES user_brokers (user_broker_id) ON DELETE SET NULL,
  -- The order the request was about (placing, modifying, cancelling, looking it up); NULL for
  -- account-wide reads (the order book, positions, margins).
  order_id uuid REFERENCES orders (order_id) ON DELETE CASCADE,
  broker text NOT NULL REFERENCES brokers (broker) ON UPDATE CASCADE,
  method text NOT NULL CHECK (method IN ('GET', 'POST', 'PUT', 'DELETE')),
  path text NOT NULL,
  -- The form or query as sent, with every secret replaced by "[redacted]".
  request jsonb NOT NULL DEFAULT '{}',
  http_status integer,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'token', 'rate-limited', 'refused', 'server', 'timeout', 'unreachable', 'malformed')),
  response jsonb,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0)
);

CREATE INDEX broker_requests_order_idx ON broker_requests (order_id, started_at) WHERE order_id IS NOT NULL;
CREATE INDEX broker_requests_account_idx ON broker_requests (user_broker_id, started_at);
CREATE INDEX broker_requests_user_idx ON broker_requests (user_id, started_at DESC);

ALTER TABLE broker_sessions
  ADD COLUMN invalidated_at timestamptz,
  ADD COLUMN invalid_reason text,
  ADD CONSTRAINT broker_sessions_invalid_has_reason CHECK ((invalidated_at IS NULL) = (invalid_reason IS NULL));

CREATE TABLE trading_alerts (
  trading_alert_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  user_broker_id uuid REFERENCES user_brokers (user_broker_id) ON DELETE SET NULL,
  strategy_id uuid REFERENCES strategies (strategy_id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN (
    'broker-session-missing', 'broker-session-lost', 'unexplained-position', 'margin-short',
    'order-unresolved', 'rate-limited', 'reconciled')),
  message text NOT NULL CHECK (message <> ''),
  -- What the user can do about it (e.g. the broker login path); NULL when nothing.
  action_path text,
  created_at timestamptz NOT NULL DEFAULT now(),
  acknowledged_at timestamptz
);

CREATE INDEX trading_alerts_user_idx ON trading_alerts (user_id, created_at DESC);
-- One open alert per account, strategy and kind: the same condition again refreshes it.
CREATE UNIQUE INDEX trading_alerts_open_idx ON trading_alerts (user_id, user_broker_id, strategy_id, kind)
  NULLS NOT DISTINCT WHERE acknowledged_at IS NULL;

SELECT public.watch_table_changes('public.broker_requests');
SELECT public.watch_table_changes('public.trading_alerts');
SELECT public.watch_table_changes('public.broker_instrument_dumps');

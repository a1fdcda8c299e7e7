-- 0029: ensembles kept in sync across client accounts (/ensembleSync, docs/PRODUCT.md sections 1
-- and 9; the runtime is packages/server/src/trading/ensembles/, the actions
-- packages/server/src/graphql/actions/ensemble-actions.ts).
--
-- - An ensemble is a strategies row of kind 'ensemble', owned by the administrator who made it.
--   Its members (ensemble_members) are algo strategies with a weight; its subscribed accounts
--   (ensemble_accounts) are broker accounts with an investment in paise, a mode and an active flag.
-- - A sync (ensemble_syncs) is one apply of a preview: who, when, the as_of date, the preview
--   token (SHA-256 of the inputs, hex) and the outcome; ensemble_sync_orders are the orders it
--   placed, one per account and instrument, each with the run and order it became.
-- - One token is applied once: UNIQUE (ensemble_id, preview_token), so a second apply of the same
--   preview inserts nothing and places nothing.
-- - as_of is never before 2021-01-01 (docs/PRODUCT.md section 9, the earliest ensemble sync date).
-- - Not exposed to GraphQL tables: administrators read and change them through the ensemble actions.

CREATE TABLE ensemble_members (
  ensemble_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  member_strategy_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  weight numeric(12, 4) NOT NULL DEFAULT 1 CHECK (weight > 0),
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (ensemble_id, member_strategy_id),
  CHECK (ensemble_id <> member_strategy_id)
);

CREATE TABLE ensemble_accounts (
  ensemble_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  user_broker_id uuid NOT NULL REFERENCES user_brokers (user_broker_id) ON DELETE CASCADE,
  investment_paise bigint NOT NULL CHECK (investment_paise > 0),
  mode text NOT NULL CHECK (mode IN ('PAPER', 'LIVE')),
  active boolean NOT NULL DEFAULT true,
  added_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (ensemble_id, user_broker_id)
);

CREATE TRIGGER ensemble_accounts_set_updated_at BEFORE UPDATE ON ensemble_accounts
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE ensemble_syncs (
  sync_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  ensemble_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  actor_id uuid REFERENCES users (user_id) ON DELETE SET NULL,
  preview_token text NOT NULL CHECK (preview_token ~ '^[0-9a-f]{64}$'),
  as_of date NOT NULL CHECK (as_of >= DATE '2021-01-01'),
  status text NOT NULL DEFAULT 'PLACING' CHECK (status IN ('PLACING', 'COMPLETE', 'PARTIAL', 'FAILED', 'NOTHING')),
  orders_count integer NOT NULL DEFAULT 0 CHECK (orders_count >= 0),
  filled_count integer NOT NULL DEFAULT 0 CHECK (filled_count >= 0),
  accounts_count integer NOT NULL DEFAULT 0 CHECK (accounts_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (ensemble_id, preview_token),
  CHECK (finished_at IS NULL OR finished_at >= created_at)
);

-- The history, newest first.
CREATE INDEX ensemble_syncs_ensemble_idx ON ensemble_syncs (ensemble_id, created_at DESC);

CREATE TABLE ensemble_sync_orders (
  sync_id uuid NOT NULL REFERENCES ensemble_syncs (sync_id) ON DELETE CASCADE,
  user_broker_id uuid NOT NULL REFERENCES user_brokers (user_broker_id) ON DELETE CASCADE,
  instrument_id integer NOT NULL REFERENCES instruments (instrument_id),
  trading_symbol text NOT NULL,
  side text NOT NULL CHECK (side IN ('BUY', 'SELL')),
  quantity integer NOT NULL CHECK (quantity > 0),
  mode text NOT NULL CHECK (mode IN ('PAPER', 'LIVE')),
  estimated_price_paise bigint NOT NULL CHECK (estimated_price_paise >= 0),
  estimated_charges_paise bigint NOT NULL CHECK (estimated_charges_paise >= 0),
  run_id uuid REFERENCES strategy_runs (run_id) ON DELETE SET NULL,
  order_id uuid REFERENCES orders (order_id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'FILLED', 'REFUSED', 'REJECTED', 'NOT_FILLED', 'NOT_SENT')),
  message text,
  average_price_paise bigint,
  PRIMARY KEY (sync_id, user_broker_id, instrument_id)
);

-- An account's ensemble runs (params.ensemble.ensembleId) are found through their orders here.
CREATE INDEX ensemble_sync_orders_run_idx ON ensemble_sync_orders (run_id) WHERE run_id IS NOT NULL;

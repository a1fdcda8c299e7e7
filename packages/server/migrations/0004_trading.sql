-- 0004: algorithms, strategies, subscriptions, runs, orders and fills, P&L, credits, licences.

CREATE TABLE algorithms (
  algorithm_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name <> ''),
  description text NOT NULL DEFAULT '',
  published boolean NOT NULL DEFAULT false,
  -- Highest version saved so far; NULL until the first version exists.
  latest_version integer CHECK (latest_version > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, name)
);

CREATE INDEX algorithms_published_idx ON algorithms (updated_at DESC) WHERE published;

CREATE TRIGGER algorithms_set_updated_at BEFORE UPDATE ON algorithms
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Immutable snapshots of the rule graph. A strategy and every run point at one version, so a
-- later edit never changes what an old backtest ran. schema_version lets the engine migrate old
-- graphs when it reads them (STYLE.md rule 8).
CREATE TABLE algorithm_versions (
  algorithm_id uuid NOT NULL REFERENCES algorithms (algorithm_id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version > 0),
  graph jsonb NOT NULL CHECK (jsonb_typeof(graph) = 'object'),
  schema_version integer NOT NULL CHECK (schema_version > 0),
  created_by uuid REFERENCES users (user_id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (algorithm_id, version)
);

CREATE TRIGGER algorithm_versions_immutable BEFORE UPDATE ON algorithm_versions
  FOR EACH ROW EXECUTE FUNCTION public.refuse_change(
    'algorithm_versions rows are immutable snapshots: save a new version instead');

-- Saved indicator groups for charts and strategy P&L panels. user_id NULL = built-in group.
CREATE TABLE indicator_configs (
  indicator_config_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name <> ''),
  indicators jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(indicators) = 'array'),
  pnl_indicators jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(pnl_indicators) = 'array'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT indicator_configs_name_key UNIQUE NULLS NOT DISTINCT (user_id, name)
);

CREATE TRIGGER indicator_configs_set_updated_at BEFORE UPDATE ON indicator_configs
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE strategies (
  strategy_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name <> ''),
  strategy_type text NOT NULL DEFAULT 'intraday' CHECK (strategy_type IN ('intraday', 'swing')),
  mode text NOT NULL DEFAULT 'PAPER' CHECK (mode IN ('LIVE', 'PAPER')),
  status text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'ACTIVE', 'PAUSED', 'STOPPED', 'ARCHIVED')),
  kind text NOT NULL DEFAULT 'algo' CHECK (kind IN ('algo', 'basket', 'ensemble')),
  algorithm_id uuid,
  algorithm_version integer,
  instrument_id integer REFERENCES instruments (instrument_id),
  indicator_config_id uuid REFERENCES indicator_configs (indicator_config_id) ON DELETE SET NULL,
  -- Chart/evaluation interval in minutes (spec section 9 choices; default 5).
  interval_minutes integer NOT NULL DEFAULT 5
    CHECK (interval_minutes IN (1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440)),
  config jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(config) = 'object'),
  published boolean NOT NULL DEFAULT false,
  -- Exchange-issued algo id (SEBI retail algo framework); copied onto every order.
  algo_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (algorithm_id, algorithm_version) REFERENCES algorithm_versions (algorithm_id, version),
  CHECK ((algorithm_id IS NULL) = (algorithm_version IS NULL)),
  -- An algo strategy runs an algorithm snapshot; baskets and ensembles are made of other things.
  CONSTRAINT strategies_algo_has_algorithm CHECK (kind <> 'algo' OR algorithm_id IS NOT NULL)
);

CREATE INDEX strategies_user_id_idx ON strategies (user_id, updated_at DESC);
CREATE INDEX strategies_published_idx ON strategies (updated_at DESC) WHERE published;
CREATE INDEX strategies_algorithm_idx ON strategies (algorithm_id, algorithm_version) WHERE algorithm_id IS NOT NULL;

CREATE TRIGGER strategies_set_updated_at BEFORE UPDATE ON strategies
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- A user following a (usually published) strategy with their own quantity and capital.
CREATE TABLE subscriptions (
  subscription_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  strategy_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  instrument_id integer REFERENCES instruments (instrument_id),
  quantity integer NOT NULL CHECK (quantity > 0),
  investment_amt_paise bigint NOT NULL DEFAULT 0 CHECK (investment_amt_paise >= 0),
  investment_history jsonb NOT NULL DEFAULT '[]' CHECK (public.is_investment_history(investment_history)),
  -- maskMode / maskQty of spec section 3: each a {"value": ..., "quantity": ...} pair.
  mask_mode jsonb CHECK (mask_mode IS NULL OR (jsonb_typeof(mask_mode) = 'object' AND mask_mode ?& ARRAY['value', 'quantity'])),
  mask_qty jsonb CHECK (mask_qty IS NULL OR (jsonb_typeof(mask_qty) = 'object' AND mask_qty ?& ARRAY['value', 'quantity'])),
  active boolean NOT NULL DEFAULT true,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id, active);
CREATE INDEX subscriptions_strategy_id_idx ON subscriptions (strategy_id);

CREATE TRIGGER subscriptions_set_updated_at BEFORE UPDATE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Signals waiting for a user's confirmation (manual strategies) before becoming orders.
CREATE TABLE pending_signals (
  pending_signal_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  strategy_id uuid NOT NULL REFERENCES strategies (strategy_id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'PROCESSED')),
  payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  CHECK (processed_at IS NULL OR processed_at >= created_at)
);

-- "My pending signals, oldest first" is the only hot query.
CREATE INDEX pending_signals_pending_idx ON pending_signals (user_id, created_at) WHERE state = 'PENDING';
CREATE INDEX pending_signals_strategy_id_idx ON pending_signals (strategy_id, created_at);

-- One execution of the kernel: a backtest, a simulation, a paper or live session, or the
-- container for manual/OMS orders.
CREATE TABLE strategy_runs (
  run_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  strategy_id uuid REFERENCES strategies (strategy_id) ON DELETE SET NULL,
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('BACKTEST', 'SIMULATION', 'MANUAL', 'ALGO', 'OMS', 'LIVE', 'PAPER')),
  status text NOT NULL DEFAULT 'IN PROGRESS' CHECK (status IN (
    'COMPLETE', 'IN PROGRESS', 'SUCCESS', 'ERROR', 'ERROR: SQUARED OFF', 'COMPLETE: SQUARED OFF')),
  progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  -- Candles processed = backtest credits used (spec section 3).
  candles bigint NOT NULL DEFAULT 0 CHECK (candles >= 0),
  params jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(params) = 'object'),
  result jsonb,
  metrics jsonb,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  CHECK (finished_at IS NULL OR finished_at >= started_at),
  -- A run still in progress has not finished.
  CONSTRAINT strategy_runs_in_progress_unfinished CHECK (status <> 'IN PROGRESS' OR finished_at IS NULL)
);

-- Run lists per user and per strategy, newest first; the candle sum for credits by user.
CREATE INDEX strategy_runs_user_idx ON strategy_runs (user_id, started_at DESC);
CREATE INDEX strategy_runs_strategy_idx ON strategy_runs (strategy_id, started_at DESC) WHERE strategy_id IS NOT NULL;
-- Workers and restart recovery look for runs still in progress.
CREATE INDEX strategy_runs_in_progress_idx ON strategy_runs (started_at) WHERE status = 'IN PROGRESS';

CREATE TABLE orders (
  order_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Written before anything is sent to a venue; the idempotency key for resends and reconciles.
  client_order_id text NOT NULL UNIQUE CHECK (client_order_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  run_id uuid NOT NULL REFERENCES strategy_runs (run_id) ON DELETE CASCADE,
  strategy_id uuid REFERENCES strategies (strategy_id) ON DELETE SET NULL,
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  user_broker_id uuid REFERENCES user_brokers (user_broker_id) ON DELETE SET NULL,
  instrument_id integer NOT NULL REFERENCES instruments (instrument_id),
  side text NOT NULL CHECK (side IN ('BUY', 'SELL')),
  quantity integer NOT NULL CHECK (quantity > 0),
  filled_quantity integer NOT NULL DEFAULT 0 CHECK (filled_quantity >= 0),
  order_type text NOT NULL CHECK (order_type IN ('MARKET', 'LIMIT', 'SL', 'SL-M')),
  product text NOT NULL CHECK (product IN (
    'MIS', 'I', 'Intraday', 'CNC', 'NRML', 'Margin', 'Delivery', 'Carryforward', 'D', 'M')),
  price_paise bigint CHECK (price_paise > 0),
  trigger_price_paise bigint CHECK (trigger_price_paise > 0),
  average_price_paise bigint CHECK (average_price_paise > 0),
  status text NOT NULL DEFAULT 'PENDING_SUBMIT' CHECK (status IN (
    'PENDING_SUBMIT', 'SUBMITTED', 'OPEN', 'PARTIALLY_FILLED', 'PENDING_CANCEL',
    'FILLED', 'CANCELLED', 'REJECTED', 'UNKNOWN')),
  status_message text,
  algo_id text,
  broker_order_id text,
  tag text,
  created_at timestamptz NOT NULL DEFAULT now(),
  submitted_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (filled_quantity <= quantity),
  CONSTRAINT orders_limit_needs_price CHECK (order_type NOT IN ('LIMIT', 'SL') OR price_paise IS NOT NULL),
  CONSTRAINT orders_stop_needs_trigger CHECK (order_type NOT IN ('SL', 'SL-M') OR trigger_price_paise IS NOT NULL),
  CONSTRAINT orders_filled_quantity_matches_status CHECK (
    CASE status
      WHEN 'FILLED' THEN filled_quantity = quantity
      WHEN 'PARTIALLY_FILLED' THEN filled_quantity > 0 AND filled_quantity < quantity
      WHEN 'PENDING_SUBMIT' THEN filled_quantity = 0
      ELSE true
    END)
);

CREATE INDEX orders_run_idx ON orders (run_id, created_at);
CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
-- Acks and fills from a broker arrive keyed by the broker's order id.
CREATE INDEX orders_broker_order_idx ON orders (broker_order_id) WHERE broker_order_id IS NOT NULL;
-- Restart reconciliation reads every order that is not final.
CREATE INDEX orders_open_idx ON orders (user_id)
  WHERE status NOT IN ('FILLED', 'CANCELLED', 'REJECTED');

CREATE TRIGGER orders_set_updated_at BEFORE UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- The OMS owns the full state machine; the database guards the two rules whose violation
-- would corrupt history: a final state is final, and nothing goes back to PENDING_SUBMIT.
CREATE FUNCTION public.orders_guard_status() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF OLD.status IN ('FILLED', 'CANCELLED', 'REJECTED') THEN
      RAISE EXCEPTION 'order % is % and cannot become %', OLD.client_order_id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_final_status';
    END IF;
    IF NEW.status = 'PENDING_SUBMIT' THEN
      RAISE EXCEPTION 'order % cannot return to PENDING_SUBMIT from %', OLD.client_order_id, OLD.status
        USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_final_status';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER orders_guard_status BEFORE UPDATE OF status ON orders
  FOR EACH ROW EXECUTE FUNCTION public.orders_guard_status();

CREATE TABLE fills (
  fill_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
  -- Exchange trade id, or the simulated venue's id; replaying the same fill is a conflict.
  trade_id text NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  price_paise bigint NOT NULL CHECK (price_paise > 0),
  -- Breakdown by component, e.g. {"brokerage": 2000, "stt": 15, "exchange": 11, "sebi": 0,
  -- "stamp": 0, "gst": 362}; every value an integer number of paise, never negative.
  charges_paise jsonb NOT NULL DEFAULT '{}' CHECK (
    jsonb_typeof(charges_paise) = 'object'
    AND NOT jsonb_path_exists(charges_paise, '$.* ? (@.type() != "number" || @ < 0 || @.floor() != @)')),
  ts timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_id, trade_id)
);

CREATE INDEX fills_ts_idx ON fills (order_id, ts);

CREATE TRIGGER fills_immutable BEFORE UPDATE ON fills
  FOR EACH ROW EXECUTE FUNCTION public.refuse_change('fills are facts from the venue and are never updated');

-- The fills of an order can never add up to more than the order's quantity. The order row is
-- locked so two concurrent fills for one order are checked one after the other.
CREATE FUNCTION public.fills_within_order_quantity() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ordered integer;
  already integer;
BEGIN
  SELECT quantity INTO ordered FROM orders WHERE order_id = NEW.order_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NEW; -- the foreign key reports the missing order
  END IF;
  SELECT coalesce(sum(quantity), 0) INTO already FROM fills WHERE order_id = NEW.order_id;
  IF already + NEW.quantity > ordered THEN
    RAISE EXCEPTION 'fill of % would bring order % to % of % ordered',
      NEW.quantity, NEW.order_id, already + NEW.quantity, ordered
      USING ERRCODE = 'check_violation', CONSTRAINT = 'fills_within_order_quantity';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER fills_within_order_quantity BEFORE INSERT ON fills
  FOR EACH ROW EXECUTE FUNCTION public.fills_within_order_quantity();

-- Net position per run and instrument (signed: negative = short).
CREATE TABLE positions (
  run_id uuid NOT NULL REFERENCES strategy_runs (run_id) ON DELETE CASCADE,
  instrument_id integer NOT NULL REFERENCES instruments (instrument_id),
  net_quantity integer NOT NULL DEFAULT 0,
  average_price_paise bigint NOT NULL DEFAULT 0 CHECK (average_price_paise >= 0),
  realised_pnl_paise bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, instrument_id),
  -- A flat position has no average price.
  CHECK (net_quantity <> 0 OR average_price_paise = 0)
);

CREATE TRIGGER positions_set_updated_at BEFORE UPDATE ON positions
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Day-level P&L and order counts per run, for the dashboard calendar heatmaps.
CREATE TABLE daily_pnl (
  run_id uuid NOT NULL REFERENCES strategy_runs (run_id) ON DELETE CASCADE,
  date date NOT NULL,
  pnl_paise bigint NOT NULL,
  orders_count integer NOT NULL DEFAULT 0 CHECK (orders_count >= 0),
  PRIMARY KEY (run_id, date)
);

-- Credit grants. BACKTEST/CANDLES = candles a user may backtest; STRATEGIES/DEPLOYED = the
-- strategy licence (its expiry and activation dates; the counts live in deployed_strategies).
CREATE TABLE user_credits (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  credits bigint NOT NULL CHECK (credits >= 0),
  expiry date NOT NULL,
  category text NOT NULL CHECK (category IN ('BACKTEST', 'STRATEGIES')),
  subcategory text NOT NULL CHECK (subcategory IN ('CANDLES', 'DEPLOYED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT user_credits_category_pair CHECK (
    (category = 'BACKTEST' AND subcategory = 'CANDLES')
    OR (category = 'STRATEGIES' AND subcategory = 'DEPLOYED'))
);

-- Serves the credit aggregates of spec section 7: by user, category, subcategory, expiry >= today.
CREATE INDEX user_credits_lookup_idx ON user_credits (user_id, category, subcategory, expiry);

-- Strategy licence counters: how many strategies a user may deploy and how many are deployed.
CREATE TABLE deployed_strategies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  available integer NOT NULL CHECK (available >= 0),
  utilized integer NOT NULL DEFAULT 0 CHECK (utilized >= 0),
  expiry date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (utilized <= available)
);

CREATE INDEX deployed_strategies_user_idx ON deployed_strategies (user_id, expiry);

CREATE TRIGGER deployed_strategies_set_updated_at BEFORE UPDATE ON deployed_strategies
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Licence credits of spec section 3, one row per user and licence type, derived (never stored)
-- so it cannot drift from the grants and the runs. "Today" is the IST calendar date, and only
-- grants expiring today or later count (spec section 5).
CREATE VIEW licences AS
WITH today AS (
  SELECT (now() AT TIME ZONE 'Asia/Kolkata')::date AS day
)
SELECT u.user_id,
       'backtest'::text AS licence_type,
       coalesce(grants.total, 0)::bigint AS total_credits,
       coalesce(used.candles, 0)::bigint AS utilized_credits,
       grants.expire_on,
       grants.activated_on
FROM users u
CROSS JOIN today
LEFT JOIN LATERAL (
  SELECT sum(c.credits) AS total, max(c.expiry) AS expire_on, max(c.created_at) AS activated_on
  FROM user_credits c
  WHERE c.user_id = u.user_id AND c.category = 'BACKTEST' AND c.subcategory = 'CANDLES'
    AND c.expiry >= today.day
) grants ON true
LEFT JOIN LATERAL (
  SELECT sum(r.candles) AS candles FROM strategy_runs r WHERE r.user_id = u.user_id
) used ON true
UNION ALL
SELECT u.user_id,
       'strategy'::text,
       coalesce(counts.available, 0)::bigint,
       coalesce(counts.utilized, 0)::bigint,
       grants.expire_on,
       grants.activated_on
FROM users u
CROSS JOIN today
LEFT JOIN LATERAL (
  SELECT sum(d.available) AS available, sum(d.utilized) AS utilized
  FROM deployed_strategies d
  WHERE d.user_id = u.user_id AND d.expiry >= today.day
) counts ON true
LEFT JOIN LATERAL (
  SELECT max(c.expiry) AS expire_on, max(c.created_at) AS activated_on
  FROM user_credits c
  WHERE c.user_id = u.user_id AND c.category = 'STRATEGIES' AND c.subcategory = 'DEPLOYED'
    AND c.expiry >= today.day
) grants ON true;

-- 0018: what the OMS of the trading runtime needs beyond 0004's tables (packages/server/src/trading/oms/,
-- ARCHITECTURE.md "The life of a live order").
--
-- - orders.parent_order_id: the slices of one order cut at the freeze quantity point at the first
--   slice, so a screen can show them as one decision.
-- - orders.queued_until: an order written and waiting in the 10-orders-per-second queue shows when it
--   is expected to leave (NULL once it left, or when it never waited); orders.square_off marks a
--   reduce-only square-off, the one kind of order a kill switch lets out.
-- - positions keep the exact cost of the open units (the rounded average price alone cannot give
--   back the exact realised P&L of a later reduction), the charges, the last mark, and where the
--   IST day started (realised, unrealised and charges at the first change of the day), so a day's
--   P&L counts only that day's move.
-- - daily_pnl splits pnl_paise into realised, mark-to-market and charges (pnl = realised + mtm - charges).
-- - kill_switches: one row per user and one global row (user_id NULL) for administrators.
-- - paper_order_seq: the paper venue's own order numbers (broker order ids PAPER-<n>), unique across
--   processes.

ALTER TABLE orders
  ADD COLUMN parent_order_id uuid REFERENCES orders (order_id) ON DELETE CASCADE,
  ADD COLUMN queued_until timestamptz,
  -- A reduce-only order closing a position (a kill switch's, a stop's): allowed out with a kill switch on.
  ADD COLUMN square_off boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT orders_parent_not_self CHECK (parent_order_id <> order_id),
  -- Only an order not yet sent can be waiting in the queue.
  ADD CONSTRAINT orders_queued_unsent CHECK (queued_until IS NULL OR (status = 'PENDING_SUBMIT' AND submitted_at IS NULL));

CREATE INDEX orders_parent_idx ON orders (parent_order_id) WHERE parent_order_id IS NOT NULL;
-- Restart recovery reads a run's orders that are not final.
CREATE INDEX orders_run_open_idx ON orders (run_id) WHERE status NOT IN ('FILLED', 'CANCELLED', 'REJECTED');

ALTER TABLE positions
  ADD COLUMN open_cost_paise bigint NOT NULL DEFAULT 0 CHECK (open_cost_paise >= 0),
  ADD COLUMN charges_paise bigint NOT NULL DEFAULT 0 CHECK (charges_paise >= 0),
  ADD COLUMN mark_price_paise bigint CHECK (mark_price_paise > 0),
  ADD COLUMN day_date date,
  ADD COLUMN day_start_realised_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN day_start_unrealised_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN day_start_charges_paise bigint NOT NULL DEFAULT 0;

-- Rows written before this migration (backtests) get the cost their rounded average implies.
UPDATE positions SET open_cost_paise = abs(net_quantity)::bigint * average_price_paise WHERE net_quantity <> 0;

ALTER TABLE positions
  ADD CONSTRAINT positions_flat_has_no_cost CHECK (net_quantity <> 0 OR open_cost_paise = 0);

ALTER TABLE daily_pnl
  ADD COLUMN realised_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN mtm_paise bigint NOT NULL DEFAULT 0,
  ADD COLUMN charges_paise bigint NOT NULL DEFAULT 0 CHECK (charges_paise >= 0);

CREATE TABLE kill_switches (
  kill_switch_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- NULL: the administrators' switch over every user.
  user_id uuid REFERENCES users (user_id) ON DELETE CASCADE,
  is_on boolean NOT NULL DEFAULT false,
  -- Close the open positions (market orders) when it was turned on.
  square_off boolean NOT NULL DEFAULT false,
  reason text,
  changed_by uuid REFERENCES users (user_id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT kill_switches_one_per_user UNIQUE NULLS NOT DISTINCT (user_id)
);

SELECT public.watch_table_changes('public.kill_switches');

CREATE SEQUENCE paper_order_seq;

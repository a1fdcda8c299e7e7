-- 0026: account-level risk (/userAccounts, docs/PRODUCT.md section 3's user-accounts columns) and
-- each broker account's day as the runtime saw it (packages/server/src/trading/account-risk.ts).
--
-- account_risk: one row per broker account whose settings were ever edited (no row: everything off).
-- - Levels are integers in hundredths of trail_mode's unit: POINTS = rupees of the account's day P&L
--   (so the value is paise), PERCENT = percent of the account's investment (basis points, at most
--   10000 = 100%). sl/tgt are today's levels: they apply on the IST date `levels_day` (the day they
--   were set); any other day starts from default_sl/default_tgt.
-- - enable_sl: the day P&L at or below -sl squares the account off. enable_target: at or above tgt.
-- - trail_enabled with trail_tsl: once the day P&L has been above 0, the stop also trails its peak
--   by trail_tsl (squared off at peak - trail_tsl). trail_enabled with trail_ttg: reaching tgt does
--   not square off at once; the account is squared off when the P&L falls trail_ttg below its peak.
-- - Written only by the set_account_risk action (the user's manager or a superadmin).
--
-- account_risk_days: one row per broker account and trading day (the market day its runs trade:
-- a replay's date, else today in IST), written by the runtime's account watch while PAPER or LIVE
-- runs trade on the account: the day P&L (realised + unrealised after charges, daily_pnl), its peak,
-- open positions, investment and broker session state as last seen, and the halt when a level was
-- hit (halted_at set once, compare-and-set: the square-off is asked for once).
CREATE TABLE account_risk (
  user_broker_id uuid PRIMARY KEY REFERENCES user_brokers (user_broker_id) ON DELETE CASCADE,
  enable_sl boolean NOT NULL DEFAULT false,
  sl bigint NOT NULL DEFAULT 0,
  default_sl bigint NOT NULL DEFAULT 0,
  trail_enabled boolean NOT NULL DEFAULT false,
  trail_mode text NOT NULL DEFAULT 'POINTS' CHECK (trail_mode IN ('POINTS', 'PERCENT')),
  trail_tsl bigint NOT NULL DEFAULT 0,
  enable_target boolean NOT NULL DEFAULT false,
  tgt bigint NOT NULL DEFAULT 0,
  default_tgt bigint NOT NULL DEFAULT 0,
  trail_ttg bigint NOT NULL DEFAULT 0,
  levels_day date,
  updated_by uuid REFERENCES users (user_id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT account_risk_non_negative CHECK (sl >= 0 AND default_sl >= 0 AND trail_tsl >= 0 AND tgt >= 0 AND default_tgt >= 0 AND trail_ttg >= 0),
  -- Percent levels are of the investment: at most 100%. Rupee levels at most ₹100 crore.
  CONSTRAINT account_risk_levels_in_range CHECK (
    CASE trail_mode WHEN 'PERCENT' THEN greatest(sl, default_sl, trail_tsl, tgt, default_tgt, trail_ttg) <= 10000
                    ELSE greatest(sl, default_sl, trail_tsl, tgt, default_tgt, trail_ttg) <= 100000000000 END),
  CONSTRAINT account_risk_sl_set CHECK (NOT enable_sl OR (sl > 0 AND default_sl > 0)),
  CONSTRAINT account_risk_target_set CHECK (NOT enable_target OR (tgt > 0 AND default_tgt > 0)),
  CONSTRAINT account_risk_trail_set CHECK (NOT trail_enabled OR trail_tsl > 0 OR (trail_ttg > 0 AND enable_target))
);

CREATE TRIGGER account_risk_set_updated_at BEFORE UPDATE ON account_risk
  FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

CREATE TABLE account_risk_days (
  user_broker_id uuid NOT NULL REFERENCES user_brokers (user_broker_id) ON DELETE CASCADE,
  trading_day date NOT NULL,
  pnl_paise bigint NOT NULL DEFAULT 0,
  peak_pnl_paise bigint NOT NULL DEFAULT 0,
  target_reached boolean NOT NULL DEFAULT false,
  open_positions integer NOT NULL DEFAULT 0 CHECK (open_positions >= 0),
  investment_paise bigint NOT NULL DEFAULT 0 CHECK (investment_paise >= 0),
  session_state text NOT NULL CHECK (session_state IN ('NONE', 'ACTIVE', 'EXPIRED', 'LOST')),
  halted_at timestamptz,
  halt_kind text CHECK (halt_kind IN ('STOP', 'TARGET', 'TRAILING_STOP', 'TRAILING_TARGET')),
  halt_message text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_broker_id, trading_day),
  CONSTRAINT account_risk_days_halt_complete CHECK (
    (halted_at IS NULL) = (halt_kind IS NULL) AND (halted_at IS NULL) = (halt_message IS NULL)),
  CONSTRAINT account_risk_days_peak CHECK (peak_pnl_paise >= 0 AND peak_pnl_paise >= pnl_paise)
);

-- A halted account refuses deploys for the rest of its IST day (deployments.ts).
CREATE INDEX account_risk_days_halted_idx ON account_risk_days (user_broker_id, halted_at) WHERE halted_at IS NOT NULL;

ALTER TABLE trading_alerts DROP CONSTRAINT trading_alerts_kind_check;
ALTER TABLE trading_alerts ADD CONSTRAINT trading_alerts_kind_check CHECK (kind IN (
  'broker-session-missing', 'broker-session-lost', 'unexplained-position', 'margin-short',
  'order-unresolved', 'rate-limited', 'reconciled', 'follow-not-live', 'account-risk'));

SELECT public.watch_table_changes('public.account_risk');
SELECT public.watch_table_changes('public.account_risk_days');

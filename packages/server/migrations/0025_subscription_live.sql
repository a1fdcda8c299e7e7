-- 0025: a subscriber following a published strategy LIVE (packages/server/src/trading/follow/).
--
-- - subscriptions.mode: 'PAPER' (the default: the follower run trades on a paper venue) or 'LIVE'
--   (the follower's copies go to the broker account `user_broker_id`, only when the publisher's
--   run is LIVE: its signals come from the real market. Behind a PAPER run on the simulated market
--   a LIVE subscription trades nothing; a replay's followers are paper whatever the mode).
--   subscribe_strategy and update_subscription accept LIVE only with an active Zerodha account of
--   the subscriber and a tier that trades LIVE; the runtime checks again when a follower opens
--   (and refuses the publisher's own account), and a LIVE follower that cannot trade raises a
--   'follow-not-live' alert instead of trading on paper.
-- - trading_alerts.kind gains 'follow-not-live'.

ALTER TABLE subscriptions
  ADD COLUMN mode text NOT NULL DEFAULT 'PAPER' CHECK (mode IN ('PAPER', 'LIVE'));

ALTER TABLE trading_alerts DROP CONSTRAINT trading_alerts_kind_check;
ALTER TABLE trading_alerts ADD CONSTRAINT trading_alerts_kind_check CHECK (kind IN (
  'broker-session-missing', 'broker-session-lost', 'unexplained-position', 'margin-short',
  'order-unresolved', 'rate-limited', 'reconciled', 'follow-not-live'));

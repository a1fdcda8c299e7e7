-- 0024: what a subscriber's following of a published strategy needs (packages/server/src/trading/follow/).
--
-- - subscriptions.sizing: how the follower's orders are sized. 'quantity': `quantity` units of an
--   equity, or `quantity` lots of a contract traded in lots; 'investment': all-in with the
--   subscription's investment (the latest investment_history entry, else investment_amt_paise:
--   docs/PRODUCT.md section 5), as the publisher's all-in sizing does with its own capital.
-- - subscriptions.paused: a paused subscription's follower places no new entries; what it holds
--   still follows the publisher's exits, stops and targets.
-- - subscriptions.user_broker_id: the subscriber's broker account the follower trades through;
--   NULL is paper. The follower trades PAPER until LIVE following is built.
-- - strategy_runs_follower_idx: the follower run of a subscription under one publisher run is
--   found by the params the runtime writes (params.follows), so a restarted publisher run finds
--   its followers again instead of opening new ones.

ALTER TABLE subscriptions
  ADD COLUMN sizing text NOT NULL DEFAULT 'quantity' CHECK (sizing IN ('quantity', 'investment')),
  ADD COLUMN paused boolean NOT NULL DEFAULT false,
  ADD COLUMN user_broker_id uuid REFERENCES user_brokers (user_broker_id) ON DELETE SET NULL;

CREATE INDEX strategy_runs_follower_idx ON strategy_runs ((params -> 'follows' ->> 'publisherRunId'), (params -> 'follows' ->> 'subscriptionId'))
  WHERE params ? 'follows';

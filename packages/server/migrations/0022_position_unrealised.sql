-- 0022: a position's unrealised P&L, readable with the row (GraphQL `positions`, its
-- subscriptions): the open units valued at the position's mark (the last fill or the run's
-- mark to market at a bar's close) less their exact open cost, in paise. Long: units x mark - cost;
-- short: cost - units x mark. 0 while flat or never marked. The screens that tick with every
-- price value the same units at the last traded price instead.
ALTER TABLE positions ADD COLUMN unrealised_pnl_paise bigint GENERATED ALWAYS AS (
  CASE WHEN net_quantity = 0 OR mark_price_paise IS NULL THEN 0
       ELSE net_quantity::bigint * mark_price_paise - sign(net_quantity)::bigint * open_cost_paise END
) STORED;

-- 0021: the trade the paper venue decided for an order when it received it. A MARKET order fills
-- at once at the last traded price (packages/server/src/trading/paper/paper-venue.ts); the trade
-- is written with the venue's broker order id, in the same UPDATE, so a process that dies before
-- the OMS records the fill loses nothing: the restarted venue rebuilds the order as FILLED with
-- this trade and reconciliation records it, as a broker's order book would report it. NULL for
-- every order the paper venue has not filled on receipt (and for every non-paper order).
ALTER TABLE orders ADD COLUMN paper_trade jsonb CHECK (paper_trade IS NULL OR jsonb_typeof(paper_trade) = 'object');

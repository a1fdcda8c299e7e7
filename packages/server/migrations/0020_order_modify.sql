-- 0020: modifying a working order (packages/server/src/trading/oms/order-modify.ts). The OMS writes
-- the new price and trigger on the order's row with an audit row `order.modified`; this column
-- counts the modifications the venue took, because a broker limits them per order (Kite: 25).
ALTER TABLE orders
  ADD COLUMN modify_count integer NOT NULL DEFAULT 0 CHECK (modify_count >= 0);

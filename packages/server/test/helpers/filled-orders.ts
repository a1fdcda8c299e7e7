// Test fixtures that write trading history straight into the tables: one FILLED MARKET order
// with its single fill, as a run's fills look once the OMS has booked them. Shared by the server
// and browser tests that need a known history (reports, dashboard) without running a strategy.
import type pg from 'pg';

export interface FilledOrder {
  readonly clientOrderId: string;
  readonly tradeId: string;
  readonly runId: string;
  readonly strategyId: string | null;
  readonly userId: string;
  readonly userBrokerId?: string | null;
  readonly instrumentId: number;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly pricePaise: number;
  /** Charges by component, in paise (the `fills.charges_paise` object). */
  readonly charges: Readonly<Record<string, number>>;
  /** When the order was placed and filled (an ISO timestamp with its offset). */
  readonly at: string;
  /** MIS unless named. */
  readonly product?: string;
}

/** Inserts the order and its fill; returns the order id. */
export async function insertFilledOrder(db: pg.Pool | pg.PoolClient, order: FilledOrder): Promise<string> {
  const { rows } = await db.query<{ order_id: string }>(
    `INSERT INTO orders (client_order_id, run_id, strategy_id, user_id, user_broker_id, instrument_id, side, quantity, filled_quantity, order_type, product,
       average_price_paise, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, 'MARKET', $9, $10, 'FILLED', $11) RETURNING order_id`,
    [order.clientOrderId, order.runId, order.strategyId, order.userId, order.userBrokerId ?? null, order.instrumentId, order.side, order.quantity,
      order.product ?? 'MIS', order.pricePaise, order.at]);
  const orderId = (rows[0] as { order_id: string }).order_id;
  await db.query(
    `INSERT INTO fills (order_id, trade_id, quantity, price_paise, charges_paise, ts, created_at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())`,
    [orderId, order.tradeId, order.quantity, order.pricePaise, JSON.stringify(order.charges), order.at]);
  return orderId;
}

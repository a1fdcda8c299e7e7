// What a resumed run reads of an order it placed before a restart (paper-run.ts, legs-order-desk.ts):
// its fills as the venue made them, the trigger its row holds, and whether it has ended.
import { paise } from '@vyuha/core';
import type { VenueTrade } from '@vyuha/engine';
import type pg from 'pg';
import type { OmsOrderView } from '../oms/oms-types';

/** True once an order can change no more: filled, cancelled or rejected. */
export function isFinalOrder(view: OmsOrderView): boolean {
  return view.status === 'FILLED' || view.status === 'CANCELLED' || view.status === 'REJECTED';
}

/** An order's stored fills in time order, and the trigger price its row holds (paise; undefined when none). */
export async function storedOrderFills(pool: pg.Pool, orderId: string): Promise<{ trades: VenueTrade[]; triggerPricePaise: number | undefined }> {
  const { rows } = await pool.query<{ trade_id: string | null; quantity: number; price: string; ms: string; trigger: string | null }>(
    `SELECT f.trade_id, f.quantity, f.price_paise::text AS price, (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms, o.trigger_price_paise::text AS trigger
     FROM orders o LEFT JOIN fills f ON f.order_id = o.order_id WHERE o.order_id = $1 ORDER BY f.ts, f.trade_id`, [orderId]);
  const trades: VenueTrade[] = [];
  for (const row of rows) {
    if (row.trade_id !== null) trades.push({ tradeId: row.trade_id, quantity: row.quantity, pricePaise: paise(Number(row.price)), atMs: Number(row.ms) });
  }
  const trigger = rows[0]?.trigger;
  return { trades, triggerPricePaise: trigger === null || trigger === undefined ? undefined : Number(trigger) };
}

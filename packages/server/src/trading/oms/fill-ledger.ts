// A fill, the position it moves and the day's P&L it changes: written inside the transaction that
// writes the order's new state (order-events in oms.ts), so a fill never exists without its
// position change or the other way round.
//
// - The fill is inserted with ON CONFLICT (order_id, trade_id) DO NOTHING: a trade already stored
//   (by this process or another) moves nothing a second time.
// - The position row keeps the exact cost of its open units (migration 0018), so it is moved by the
//   engine's `applyFillToPosition` from its stored state; the row is locked while it moves.
// - A position remembers where its IST day started (realised, unrealised at the last mark,
//   charges); the day's P&L of a run is the sum over its positions of (now - day start), written to
//   daily_pnl as realised, mark-to-market and charges, pnl = realised + mtm - charges.
// - An option settled at its expiry moves the position as a fill would (expiry-settlement.ts): an
//   exercise is a fill at the intrinsic value charged as an exercise; a worthless expiry closes
//   the units at 0 with no fill row, so that position is no longer the fold of its fills alone.
import { istDate, paise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { applyFillToPosition, averagePricePaise, chargeModelOf, unrealisedPnlPaise } from '@vyuha/engine';
import type { ChargesConfig, NetPosition, OmsFill, OrderSide } from '@vyuha/engine';
import type pg from 'pg';
import { chaosPoint } from '../chaos';
import { inTransaction } from './order-rows';

interface PositionDbRow {
  net_quantity: number; open_cost_paise: number; realised_pnl_paise: number; charges_paise: number;
  mark_price_paise: number | null; day_date: string | null;
  day_start_realised_paise: number; day_start_unrealised_paise: number; day_start_charges_paise: number;
}

interface LockedPosition {
  readonly position: NetPosition;
  readonly markPricePaise: number | null;
  readonly dayDate: IsoDate;
  readonly dayStart: { readonly realised: number; readonly unrealised: number; readonly charges: number };
}

const SELECT_POSITION_FOR_UPDATE = `SELECT net_quantity, open_cost_paise::float8 AS open_cost_paise, realised_pnl_paise::float8 AS realised_pnl_paise,
    charges_paise::float8 AS charges_paise, mark_price_paise::float8 AS mark_price_paise, to_char(day_date, 'YYYY-MM-DD') AS day_date,
    day_start_realised_paise::float8 AS day_start_realised_paise, day_start_unrealised_paise::float8 AS day_start_unrealised_paise,
    day_start_charges_paise::float8 AS day_start_charges_paise
  FROM positions WHERE run_id = $1 AND instrument_id = $2 FOR UPDATE`;

async function lockPosition(client: pg.ClientBase, key: { runId: string; instrumentId: number; today: IsoDate }): Promise<LockedPosition> {
  // The row exists after a run's first fill: lock it straight away, and create it only when it is
  // missing (one round trip less for every later fill and every mark).
  let { rows } = await client.query<PositionDbRow>(SELECT_POSITION_FOR_UPDATE, [key.runId, key.instrumentId]);
  if (rows[0] === undefined) {
    await client.query('INSERT INTO positions (run_id, instrument_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [key.runId, key.instrumentId]);
    ({ rows } = await client.query<PositionDbRow>(SELECT_POSITION_FOR_UPDATE, [key.runId, key.instrumentId]));
  }
  const row = rows[0];
  if (row === undefined) throw new Error(`position of run ${key.runId} in instrument ${key.instrumentId} vanished inside its transaction`);
  const position: NetPosition = {
    netQuantity: row.net_quantity, openCostPaise: paise(row.open_cost_paise),
    realisedPnlPaise: paise(row.realised_pnl_paise), chargesPaise: paise(row.charges_paise),
  };
  if (row.day_date === key.today) {
    return {
      position, markPricePaise: row.mark_price_paise, dayDate: key.today,
      dayStart: { realised: row.day_start_realised_paise, unrealised: row.day_start_unrealised_paise, charges: row.day_start_charges_paise },
    };
  }
  // The first change of a new day: the day starts from the position at its last mark (the previous close).
  const unrealised = row.mark_price_paise === null ? 0 : unrealisedPnlPaise(position, row.mark_price_paise);
  return {
    position, markPricePaise: row.mark_price_paise, dayDate: key.today,
    dayStart: { realised: position.realisedPnlPaise, unrealised, charges: position.chargesPaise },
  };
}

async function writePosition(client: pg.ClientBase, key: { runId: string; instrumentId: number }, locked: LockedPosition): Promise<void> {
  const { position } = locked;
  await client.query(
    `UPDATE positions SET net_quantity = $3, average_price_paise = $4, realised_pnl_paise = $5, open_cost_paise = $6, charges_paise = $7,
       mark_price_paise = $8, day_date = $9, day_start_realised_paise = $10, day_start_unrealised_paise = $11, day_start_charges_paise = $12
     WHERE run_id = $1 AND instrument_id = $2`,
    [key.runId, key.instrumentId, position.netQuantity, averagePricePaise(position), position.realisedPnlPaise, position.openCostPaise,
      position.chargesPaise, locked.markPricePaise, locked.dayDate, locked.dayStart.realised, locked.dayStart.unrealised, locked.dayStart.charges]);
}

/** The day's realised, mark-to-market and charges of a run, summed over the positions in `source` (rows of positions' columns). */
function dayTotalsFrom(source: string): string {
  return `SELECT coalesce(sum(realised_pnl_paise - day_start_realised_paise), 0) AS realised,
            coalesce(sum(CASE WHEN net_quantity = 0 OR mark_price_paise IS NULL THEN 0
                              WHEN net_quantity > 0 THEN net_quantity * mark_price_paise - open_cost_paise
                              ELSE open_cost_paise + net_quantity * mark_price_paise END - day_start_unrealised_paise), 0) AS mtm,
            coalesce(sum(charges_paise - day_start_charges_paise), 0) AS charges
     FROM ${source}`;
}

/** A daily_pnl row's P&L columns written again; its orders_count is kept. */
const DAILY_PNL_CONFLICT = `ON CONFLICT (run_id, date) DO UPDATE SET pnl_paise = EXCLUDED.pnl_paise, realised_paise = EXCLUDED.realised_paise,
       mtm_paise = EXCLUDED.mtm_paise, charges_paise = EXCLUDED.charges_paise`;

/** Recomputes a run's daily_pnl row for `date` from its positions (orders_count is kept). */
export async function refreshDailyPnl(client: pg.ClientBase, request: { readonly runId: string; readonly date: IsoDate }): Promise<void> {
  await client.query(
    `WITH day AS (${dayTotalsFrom('positions WHERE run_id = $1 AND day_date = $2')})
     INSERT INTO daily_pnl (run_id, date, pnl_paise, realised_paise, mtm_paise, charges_paise)
     SELECT $1, $2, realised + mtm - charges, realised, mtm, charges FROM day
     ${DAILY_PNL_CONFLICT}`,
    [request.runId, request.date]);
}

/** The fill to record and where it belongs. */
export interface FillToRecord {
  readonly orderId: string;
  readonly runId: string;
  readonly instrumentId: number;
  readonly side: OrderSide;
  readonly fill: OmsFill;
  readonly charges: ChargesConfig;
  /**
   * An option exercised at its expiry instead of traded (expiry-settlement.ts): charged as the
   * exchange charges an exercise (STT on the settlement value), not as a trade.
   */
  readonly exercise?: boolean;
}

/**
 * Inserts the fill and, when it is new, moves the position and the day's P&L; false (nothing
 * changed) for a trade id the order already has.
 */
export async function recordFill(client: pg.ClientBase, request: FillToRecord): Promise<boolean> {
  const { fill } = request;
  const date = istDate(fill.atMs);
  const price = paise(fill.pricePaise);
  const charged = chargeModelOf(request.charges)({
    date, side: request.side === 'BUY' ? 'buy' : 'sell', price, quantity: fill.quantity,
    ...(request.exercise === true ? { instrument: 'option' as const, event: 'exercise' as const, settlementPrice: price } : {}),
  });
  // The position is locked before the fill is inserted, and the fill stamped with the clock then:
  // fills of one position are recorded (created_at) in the order they move it, so the position is
  // always the fold of its fills in that order, whichever transactions started first.
  const key = { runId: request.runId, instrumentId: request.instrumentId, today: date };
  const locked = await lockPosition(client, key);
  const inserted = await client.query(
    `INSERT INTO fills (order_id, trade_id, quantity, price_paise, charges_paise, ts, created_at)
     VALUES ($1, $2, $3, $4, $5, to_timestamp($6::float8 / 1000), clock_timestamp())
     ON CONFLICT (order_id, trade_id) DO NOTHING`,
    [request.orderId, fill.tradeId, fill.quantity, fill.pricePaise, JSON.stringify(charged.components), fill.atMs]);
  if (inserted.rowCount === 0) return false;
  chaosPoint('mid-fill');
  const position = applyFillToPosition(locked.position, {
    side: request.side, quantity: fill.quantity, pricePaise: fill.pricePaise, chargesPaise: charged.total,
  });
  await writePosition(client, key, { ...locked, position, markPricePaise: fill.pricePaise });
  await refreshDailyPnl(client, { runId: request.runId, date });
  return true;
}

/**
 * An option position closed by expiring worthless (expiry-settlement.ts): `quantity` units of the
 * position go at 0, with no fill row (fills are priced above 0) and no charges, and the day's
 * P&L follows, in the caller's transaction. The settlement only closes units held the other way
 * (the exchange settles what is open); anything else is refused before a row moves.
 */
export async function recordWorthlessExpiry(client: pg.ClientBase, request: {
  readonly runId: string; readonly instrumentId: number; readonly side: OrderSide; readonly quantity: number; readonly atMs: number;
}): Promise<void> {
  const date = istDate(request.atMs);
  const key = { runId: request.runId, instrumentId: request.instrumentId, today: date };
  const locked = await lockPosition(client, key);
  const held = locked.position.netQuantity;
  const closing = request.side === 'BUY' ? held < 0 : held > 0;
  if (!closing || request.quantity > Math.abs(held)) {
    throw new RangeError(`quantity: an expiry settlement ${request.side} ${request.quantity} does not close the position of ${held} in instrument ${request.instrumentId}`);
  }
  // The engine's average-cost step refuses a price of 0, so the units are closed at 1 paisa and
  // that paisa a unit is taken back out of the realised P&L: the cost closed does not depend on
  // the price, only the proceeds do.
  const atOnePaisa = applyFillToPosition(locked.position, { side: request.side, quantity: request.quantity, pricePaise: 1 });
  const proceedsAtOnePaisa = held > 0 ? request.quantity : -request.quantity;
  const position = { ...atOnePaisa, realisedPnlPaise: paise(atOnePaisa.realisedPnlPaise - proceedsAtOnePaisa) };
  // The mark stays as it was: the position is flat or smaller, and a mark cannot be 0.
  await writePosition(client, key, { ...locked, position });
  await refreshDailyPnl(client, { runId: request.runId, date });
}

/**
 * Marks a run's position to a price (a bar close, a tick): its unrealised P&L and the day's P&L
 * follow, in one statement (the bar close of every open position, at the moment strategies order):
 * the row is updated (locked by the UPDATE; on the first mark of a new IST day its day starts from
 * the position at its previous mark, as `lockPosition` starts it) and the run's daily_pnl row is
 * computed from its other positions and the one just moved. A run with no position row yet is
 * marked in a transaction that creates it.
 */
export async function markPosition(db: pg.Pool, request: {
  readonly runId: string; readonly instrumentId: number; readonly pricePaise: number; readonly atMs: number;
}): Promise<void> {
  if (!Number.isSafeInteger(request.pricePaise) || request.pricePaise <= 0) throw new RangeError(`pricePaise must be whole paise above 0, got ${request.pricePaise}`);
  const date = istDate(request.atMs);
  const { rows } = await db.query<{ moved: number }>(
    `WITH moved AS (
       UPDATE positions p SET mark_price_paise = $3, day_date = $4,
         day_start_realised_paise = CASE WHEN p.day_date IS NOT DISTINCT FROM $4::date THEN p.day_start_realised_paise ELSE p.realised_pnl_paise END,
         day_start_unrealised_paise = CASE WHEN p.day_date IS NOT DISTINCT FROM $4::date THEN p.day_start_unrealised_paise
           WHEN p.mark_price_paise IS NULL THEN 0
           WHEN p.net_quantity >= 0 THEN abs(p.net_quantity) * p.mark_price_paise - p.open_cost_paise
           ELSE p.open_cost_paise - abs(p.net_quantity) * p.mark_price_paise END,
         day_start_charges_paise = CASE WHEN p.day_date IS NOT DISTINCT FROM $4::date THEN p.day_start_charges_paise ELSE p.charges_paise END
       WHERE p.run_id = $1 AND p.instrument_id = $2
       RETURNING p.net_quantity, p.open_cost_paise, p.realised_pnl_paise, p.charges_paise, p.mark_price_paise,
         p.day_start_realised_paise, p.day_start_unrealised_paise, p.day_start_charges_paise),
     today AS (
       SELECT net_quantity, open_cost_paise, realised_pnl_paise, charges_paise, mark_price_paise,
         day_start_realised_paise, day_start_unrealised_paise, day_start_charges_paise
       FROM positions WHERE run_id = $1 AND day_date = $4 AND instrument_id <> $2
       UNION ALL SELECT * FROM moved),
     day AS (${dayTotalsFrom('today')}),
     written AS (
       INSERT INTO daily_pnl (run_id, date, pnl_paise, realised_paise, mtm_paise, charges_paise)
       SELECT $1, $4, realised + mtm - charges, realised, mtm, charges FROM day WHERE EXISTS (SELECT 1 FROM moved)
       ${DAILY_PNL_CONFLICT})
     SELECT count(*)::int AS moved FROM moved`,
    [request.runId, request.instrumentId, request.pricePaise, date]);
  if ((rows[0]?.moved ?? 0) > 0) return;
  await inTransaction(db, async (client) => {
    const key = { runId: request.runId, instrumentId: request.instrumentId, today: date };
    const locked = await lockPosition(client, key);
    await writePosition(client, key, { ...locked, markPricePaise: request.pricePaise });
    await refreshDailyPnl(client, { runId: request.runId, date });
  });
}

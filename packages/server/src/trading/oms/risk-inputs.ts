// The risk checks of an order (`checkRisk`) and what the engine's `checkOrderRisk` needs to know
// about it, read from the database: the contract (its lot and freeze rules, its exchange segment for
// the rate limit), the price band, the run's position in it, and today's P&L of the strategy and of
// the user (PAPER and LIVE runs only, never BACKTEST: daily_pnl rows of the kinds that trade).
import { istDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { checkOrderRisk, priceBandAround } from '@vyuha/engine';
import type { LotRule, PriceBand, RiskApproval, RiskRefusal } from '@vyuha/engine';
import type { Result } from '@vyuha/core';
import { isOptionUnderlying } from '@vyuha/market';
import type { ExchangeCode } from '@vyuha/market';
import type pg from 'pg';
import { batchPerKey, StatementBatch } from '../../db/statement-batch';
import type { PlaceOrderRequest, RunContext } from './oms-types';

/** A contract as the OMS sends it. */
export interface OmsInstrument {
  readonly instrumentId: number;
  readonly exchange: ExchangeCode;
  readonly tradingSymbol: string;
  readonly kind: 'index' | 'equity' | 'future' | 'option';
  readonly lotSize: number;
  readonly tickSizePaise: number;
  /** The index an index derivative is written on (its option symbol), when it is one. */
  readonly underlyingSymbol: string | null;
  readonly expiry: IsoDate | null;
}

interface InstrumentDbRow {
  instrument_id: number; exchange: string; trading_symbol: string; kind: OmsInstrument['kind']; lot_size: number; tick_size_paise: number;
  underlying_symbol: string | null; expiry: string | null;
}

/** The instrument, or undefined when no row has that id. */
export async function readInstrument(db: pg.Pool, instrumentId: number): Promise<OmsInstrument | undefined> {
  const { rows } = await db.query<InstrumentDbRow>(
    `SELECT i.instrument_id, i.exchange, i.trading_symbol, i.kind, i.lot_size, i.tick_size_paise, u.trading_symbol AS underlying_symbol,
       to_char(i.expiry, 'YYYY-MM-DD') AS expiry
     FROM instruments i LEFT JOIN instruments u ON u.instrument_id = i.underlying_instrument_id WHERE i.instrument_id = $1`, [instrumentId]);
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    instrumentId: row.instrument_id, exchange: row.exchange as ExchangeCode, tradingSymbol: row.trading_symbol, kind: row.kind,
    lotSize: row.lot_size, tickSizePaise: row.tick_size_paise, underlyingSymbol: row.underlying_symbol, expiry: row.expiry as IsoDate | null,
  };
}

/**
 * The lot rule: an index future or option by the market package's dated lot and freeze schedules
 * (on the trade date, the contract's expiry keeping its old lot), anything else by the stored lot
 * with no freeze quantity known.
 */
export function lotRuleOf(instrument: OmsInstrument, nowMs: number): LotRule {
  const symbol = instrument.underlyingSymbol;
  if ((instrument.kind === 'future' || instrument.kind === 'option') && symbol !== null && isOptionUnderlying(symbol)) {
    return { kind: 'contract', contract: { symbol, tradeDate: istDate(nowMs), ...(instrument.expiry === null ? {} : { expiry: instrument.expiry }) } };
  }
  return { kind: 'explicit', lotSize: instrument.lotSize };
}

/**
 * An option premium's band: 100% either side of the last premium. A premium doubles or halves in
 * minutes, and a stop 30-50% beyond the entry premium is how short options are protected; the
 * 20% band of other instruments would refuse those stops. Still a guard: ten times the premium
 * is a mistyped price.
 */
export const OPTION_PRICE_BAND_BASIS_POINTS = 10_000;

/** The band around the given reference price, else around the stored last price; undefined when neither is known. Options get their own width. */
export async function priceBandFor(
  db: pg.Pool,
  request: { readonly instrumentId: number; readonly referencePricePaise?: number },
  kind?: OmsInstrument['kind'],
): Promise<PriceBand | undefined> {
  if (request.referencePricePaise !== undefined) return priceBandOf(request.referencePricePaise, kind);
  const { rows } = await db.query<{ price_paise: number | null }>(
    'SELECT price_paise::float8 AS price_paise FROM instrument_last_prices WHERE instrument_id = $1', [request.instrumentId]);
  const price = rows[0]?.price_paise;
  return price === null || price === undefined || price <= 0 ? undefined : priceBandOf(price, kind);
}

/**
 * The band around `referencePricePaise` for an instrument of `kind`.
 * @example priceBandOf(10_000, 'option') // { lowerPaise: 1, upperPaise: 20000 }
 */
export function priceBandOf(referencePricePaise: number, kind?: OmsInstrument['kind']): PriceBand {
  return priceBandAround({ referencePricePaise, ...(kind === 'option' ? { basisPoints: OPTION_PRICE_BAND_BASIS_POINTS } : {}) });
}

/** What one order's risk checks read, and whether its decision was written already. */
interface RiskReadRow {
  decided: boolean; position: number | null; strategy_pnl: number; user_pnl: number; last_price: number | null;
}

/** One order's risk reads: its run, user, strategy and contract, the day, and its decision's client order ids. */
interface RiskReadInput {
  readonly runId: string;
  readonly instrumentId: number;
  readonly userId: string;
  readonly strategyId: string | null;
  readonly needsLastPrice: boolean;
  readonly day: IsoDate;
  readonly decisionIds: readonly string[];
}

/**
 * The risk reads of every order decided in one turn, in one statement (db/statement-batch.ts): at a
 * bar boundary a dozen strategies order on the same tick, and a dozen statements would queue for
 * the database's cores. Each order's row: whether any of its decision's rows exists, its run's
 * position, today's P&L of its strategy and of its user (PAPER and LIVE runs), and the last price
 * when it brings no reference price.
 */
const riskReadsOf = batchPerKey((db: pg.Pool) => new StatementBatch<RiskReadInput, RiskReadRow>({
  run: async (inputs) => {
    const { rows } = await db.query<RiskReadRow & { n: string }>(
      `WITH req AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::uuid[], $5::boolean[], $6::date[]) WITH ORDINALITY
           AS r(run_id, instrument_id, user_id, strategy_id, needs_last, day, n)),
       decided AS (
         SELECT DISTINCT d.n FROM unnest($7::text[], $8::bigint[]) AS d(id, n) JOIN orders o ON o.client_order_id = d.id)
       SELECT r.n, r.n IN (SELECT n FROM decided) AS decided,
         (SELECT p.net_quantity FROM positions p WHERE p.run_id = r.run_id AND p.instrument_id = r.instrument_id) AS position,
         coalesce(pnl.strategy, 0)::float8 AS strategy_pnl, coalesce(pnl.user_total, 0)::float8 AS user_pnl,
         CASE WHEN r.needs_last THEN (SELECT l.price_paise::float8 FROM instrument_last_prices l WHERE l.instrument_id = r.instrument_id) END AS last_price
       FROM req r
       LEFT JOIN LATERAL (
         SELECT sum(d.pnl_paise) FILTER (WHERE s.strategy_id = r.strategy_id) AS strategy, sum(d.pnl_paise) AS user_total
         FROM daily_pnl d JOIN strategy_runs s ON s.run_id = d.run_id
         WHERE s.user_id = r.user_id AND s.kind IN ('PAPER', 'LIVE') AND d.date = r.day) pnl ON true
       ORDER BY r.n`,
      [inputs.map((input) => input.runId), inputs.map((input) => input.instrumentId), inputs.map((input) => input.userId),
        inputs.map((input) => input.strategyId), inputs.map((input) => input.needsLastPrice), inputs.map((input) => input.day),
        inputs.flatMap((input) => input.decisionIds), inputs.flatMap((input, index) => input.decisionIds.map(() => index + 1))]);
    return rows;
  },
}));

/**
 * Every risk check of the engine's `checkOrderRisk` on a request, with what they read from the
 * database: the run's position, today's P&L of the strategy and of the user, the last price when
 * the request brings no reference price, and whether any of the decision's rows (`decisionIds`)
 * exists (a decision asked again after a restart: `decided`, and the caller reads its rows
 * instead). One round trip before the order is written, shared with every other order decided in
 * the same turn (`riskReadsOf`).
 */
export async function checkRisk(db: pg.Pool, input: {
  readonly run: RunContext;
  readonly request: PlaceOrderRequest;
  readonly instrument: OmsInstrument;
  readonly nowMs: number;
  readonly killSwitch: { readonly user: boolean; readonly global: boolean };
  readonly decisionIds: readonly string[];
}): Promise<{ readonly decided: boolean; readonly risk: Result<RiskApproval, readonly RiskRefusal[]> }> {
  const { run, request } = input;
  const read = await riskReadsOf(db).call({
    runId: request.runId, instrumentId: request.instrumentId, userId: run.userId, strategyId: run.strategyId,
    needsLastPrice: request.referencePricePaise === undefined, day: istDate(input.nowMs), decisionIds: input.decisionIds,
  });
  const reference = request.referencePricePaise ?? (read.last_price !== null && read.last_price > 0 ? read.last_price : undefined);
  const band = reference === undefined ? undefined : priceBandOf(reference, input.instrument.kind);
  const risk = checkOrderRisk(
    {
      side: request.side, quantity: request.quantity, orderType: request.orderType, squareOff: request.squareOff === true,
      ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
      ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
    },
    {
      lots: lotRuleOf(input.instrument, input.nowMs), ...(band === undefined ? {} : { priceBand: band }), positionQuantity: read.position ?? 0,
      strategyDayPnlPaise: read.strategy_pnl, userDayPnlPaise: read.user_pnl, killSwitch: input.killSwitch,
      ...(run.strategyMaxLossPaise === undefined ? {} : { strategyMaxLossPaise: run.strategyMaxLossPaise }),
      ...(run.userMaxLossPaise === undefined ? {} : { userMaxLossPaise: run.userMaxLossPaise }),
    });
  return { decided: read.decided, risk };
}

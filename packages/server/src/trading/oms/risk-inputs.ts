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

/** The run's net position in the instrument. */
export async function runPosition(db: pg.Pool, request: { readonly runId: string; readonly instrumentId: number }): Promise<number> {
  const { rows } = await db.query<{ net_quantity: number }>(
    'SELECT net_quantity FROM positions WHERE run_id = $1 AND instrument_id = $2', [request.runId, request.instrumentId]);
  return rows[0]?.net_quantity ?? 0;
}

/** Today's P&L (IST) of a strategy's trading runs and of all the user's trading runs. */
export async function dayPnlOf(db: pg.Pool, request: { readonly userId: string; readonly strategyId: string | null; readonly nowMs: number }): Promise<{ strategy: number; user: number }> {
  const { rows } = await db.query<{ strategy: number; user_total: number }>(
    `SELECT coalesce(sum(d.pnl_paise) FILTER (WHERE r.strategy_id = $2), 0)::float8 AS strategy, coalesce(sum(d.pnl_paise), 0)::float8 AS user_total
     FROM daily_pnl d JOIN strategy_runs r ON r.run_id = d.run_id
     WHERE r.user_id = $1 AND r.kind IN ('PAPER', 'LIVE') AND d.date = $3`,
    [request.userId, request.strategyId, istDate(request.nowMs)]);
  return { strategy: rows[0]?.strategy ?? 0, user: rows[0]?.user_total ?? 0 };
}

/** Every risk check of the engine's `checkOrderRisk` on a request, with what they read from the database. */
export async function checkRisk(db: pg.Pool, input: {
  readonly run: RunContext;
  readonly request: PlaceOrderRequest;
  readonly instrument: OmsInstrument;
  readonly nowMs: number;
  readonly killSwitch: { readonly user: boolean; readonly global: boolean };
}): Promise<Result<RiskApproval, readonly RiskRefusal[]>> {
  const { run, request } = input;
  const [position, pnl, band] = await Promise.all([
    runPosition(db, request), dayPnlOf(db, { userId: run.userId, strategyId: run.strategyId, nowMs: input.nowMs }), priceBandFor(db, request, input.instrument.kind),
  ]);
  return checkOrderRisk(
    {
      side: request.side, quantity: request.quantity, orderType: request.orderType, squareOff: request.squareOff === true,
      ...(request.pricePaise === undefined ? {} : { pricePaise: request.pricePaise }),
      ...(request.triggerPricePaise === undefined ? {} : { triggerPricePaise: request.triggerPricePaise }),
    },
    {
      lots: lotRuleOf(input.instrument, input.nowMs), ...(band === undefined ? {} : { priceBand: band }), positionQuantity: position,
      strategyDayPnlPaise: pnl.strategy, userDayPnlPaise: pnl.user, killSwitch: input.killSwitch,
      ...(run.strategyMaxLossPaise === undefined ? {} : { strategyMaxLossPaise: run.strategyMaxLossPaise }),
      ...(run.userMaxLossPaise === undefined ? {} : { userMaxLossPaise: run.userMaxLossPaise }),
    });
}

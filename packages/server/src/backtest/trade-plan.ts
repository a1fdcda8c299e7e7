// What a backtest on stored history trades, decided once for the request (run_backtest refuses
// what cannot run, field by field) and again by whoever runs it (the worker, the CLI):
// - option legs on an index (the request's tradeInstrumentsConfig): options charges of the
//   index's derivatives exchange (NSE, or BSE for SENSEX);
// - otherwise the instrument itself as the engine's tradedInstrumentOf says: an index with futures
//   as its near-month future (futures charges), a stock as shares (equity charges), anything else
//   refused with the reason.
// The request check also prices one lot of the future at the start of each date range (the first
// stored candle) and refuses an investment that does not cover it.
import { formatRupees, istDate, ok } from '@vyuha/core';
import type { IsoDate, Result } from '@vyuha/core';
import { chargeModelOf, futuresLotCost, futuresRangeIssue, marginRatesOn, tradedInstrumentOf } from '@vyuha/engine';
import type { ChargesConfig, OptionsLegsConfig, RequestIssue, TradedInstrument } from '@vyuha/engine';
import { derivativesExchangeOf, isOptionUnderlying } from '@vyuha/market';
import type pg from 'pg';
import type { InstrumentRef } from '../market-data/instrument-lookup';

/** An instruments row a backtest names, with its kind. */
export interface StoredInstrument extends InstrumentRef {
  readonly kind: string;
}

export type TradePlan = TradedInstrument | { readonly kind: 'option-legs'; readonly legs: OptionsLegsConfig; readonly charges: ChargesConfig };

/** The row's kind added to a resolved instrument. */
export async function storedInstrumentOf(pool: pg.Pool, instrument: InstrumentRef): Promise<StoredInstrument> {
  const { rows } = await pool.query<{ kind: string }>('SELECT kind FROM instruments WHERE instrument_id = $1', [instrument.instrumentId]);
  const kind = rows[0]?.kind;
  if (kind === undefined) throw new Error(`instrument ${instrument.instrumentId} (${instrument.tradingSymbol}) no longer exists`);
  return { ...instrument, kind };
}

/**
 * What a run trades, or why it cannot.
 * @example tradePlanOf(nifty, { strategyType: 'swing' }) // ok({ kind: 'index-futures', underlying: 'NIFTY', charges: ... })
 */
export function tradePlanOf(instrument: StoredInstrument, request: { readonly strategyType: 'intraday' | 'swing'; readonly legs?: OptionsLegsConfig | undefined }): Result<TradePlan, string> {
  if (request.legs === undefined) return tradedInstrumentOf(instrument, request.strategyType);
  const underlying = request.legs.underlying;
  const exchange = isOptionUnderlying(underlying) && derivativesExchangeOf(underlying) === 'BFO' ? 'BSE' : 'NSE';
  return ok({ kind: 'option-legs', legs: request.legs, charges: { kind: 'schedule', exchange, instrument: 'option' } });
}

/** The close (paise) and IST date of the first stored candle of a range, if any. */
async function firstCandle(pool: pg.Pool, request: { instrumentId: number; from: IsoDate; to: IsoDate }): Promise<{ date: IsoDate; close: number } | undefined> {
  const { rows } = await pool.query<{ ts: Date; close_paise: number }>(
    `SELECT ts, close_paise FROM candles
     WHERE instrument_id = $1 AND ts >= ($2::date::timestamp AT TIME ZONE 'Asia/Kolkata') AND ts < (($3::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
     ORDER BY ts LIMIT 1`, [request.instrumentId, request.from, request.to]);
  const row = rows[0];
  return row === undefined ? undefined : { date: istDate(row.ts.getTime()), close: row.close_paise };
}

export interface TradeRequest {
  readonly instrument: InstrumentRef;
  readonly strategyType: 'intraday' | 'swing';
  readonly dateRanges: ReadonlyArray<{ readonly from: IsoDate; readonly to: IsoDate }>;
  /** The investment of each frequency-investment pair, paise. */
  readonly investments: readonly number[];
}

/**
 * Why a request that trades its instrument itself (no option legs) cannot run, each issue at the
 * request field it is about (`instrument`, `dateRanges[1]`, `frequenciesAndInvestments[0].investment`);
 * empty when it can.
 */
export async function tradeRequestIssues(pool: pg.Pool, request: TradeRequest): Promise<RequestIssue[]> {
  const instrument = await storedInstrumentOf(pool, request.instrument);
  const traded = tradedInstrumentOf(instrument, request.strategyType);
  if (!traded.ok) return [{ path: 'instrument', message: traded.error }];
  if (traded.value.kind !== 'index-futures') return [];
  const { underlying, charges } = traded.value;
  const issues: RequestIssue[] = [];
  const short = new Set<number>();
  for (const [index, range] of request.dateRanges.entries()) {
    const early = futuresRangeIssue(underlying, range.from);
    if (early !== undefined) {
      issues.push({ path: `dateRanges[${index}]`, message: early });
      continue;
    }
    const first = await firstCandle(pool, { instrumentId: instrument.instrumentId, from: range.from, to: range.to });
    if (first === undefined) continue;
    const cost = futuresLotCost({ underlying, date: first.date, price: first.close, chargeModel: chargeModelOf(charges) });
    request.investments.forEach((investment, pair) => {
      if (short.has(pair) || investment >= cost.margin + cost.charges) return;
      short.add(pair);
      const rate = Math.round(marginRatesOn(first.date).futuresRate * 100);
      issues.push({
        path: `frequenciesAndInvestments[${pair}].investment`,
        message: `${formatRupees(investment)} does not cover one lot of ${cost.tradingSymbol}: on ${first.date} a lot of ${cost.lotSize} at about ${formatRupees(cost.price)} `
          + `needs an estimated margin of ${formatRupees(cost.margin)} (${rate}% of its value) plus ${formatRupees(cost.charges)} of charges`,
      });
    });
  }
  return issues;
}

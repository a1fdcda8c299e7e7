// One backtest on stored history, the part the backtest worker (jobs/backtest-run.ts) and the CLI
// (commands/backtest-stored.ts) share, so a run gives the same result from either:
// 1. what is traded (trade-plan.ts): option legs, an index's near-month futures, or a stock;
// 2. the history: the instrument's candles at the run's interval (stored-candles.ts), plus INDIA
//    VIX for option legs, plus the stored candles of the futures contracts the run will trade;
// 3. the engine's inputs: the series, the config (capital, type, fill, long-only, the plan's
//    charges) and the trader: the option-legs trader, or the underlying trader on the futures
//    chain (FuturesChain: lots by margin, slices, rolls) or on the stock itself (all-in);
// 4. the run, repeated for option legs until every stored option candle it asked for was loaded.
// A futures run is refused before it starts when the investment does not cover one lot at the
// first bar. Problems with the run's own inputs are StoredRunError (the worker ends the run in
// ERROR with the message, the CLI prints it); infrastructure errors are thrown as they are.
import { addDays, formatRupees, istDate, istEpochMs } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import {
  chargeModelOf, dailyLimitsOf, futuresContractRuns, FuturesPlanError, optionsLegsTraderFactory, optionsLegsWindowTraders,
} from '@vyuha/engine';
import type {
  BacktestConfigInput, BacktestResult, BarSeries, ChargesConfig, FillModel, FuturesSizing, OptionsLegsConfig, ProgramSource, Sizing,
} from '@vyuha/engine';
import type pg from 'pg';
import { seriesOf } from './series';
import { loadRunCandles, passesUntilLoaded, StoredContractCandles, StoredLegCandles, vixAtBars } from './stored-candles';
import { futuresChainOf, ROLL_TIME, runPreparedOnce } from './prepared-run';
import type { PreparedRun } from './prepared-run';
import { tradePlanOf } from './trade-plan';
import type { StoredInstrument, TradePlan } from './trade-plan';

export { EngineRunError, runPreparedOnce, tradedSummary } from './prepared-run';
export type { PreparedRun } from './prepared-run';

/** A problem with a run's own inputs (an instrument that cannot be traded, no candles, too little capital). */
export class StoredRunError extends Error {
  override readonly name = 'StoredRunError';
}

export interface StoredRunRequest {
  readonly pool: pg.Pool;
  readonly instrument: StoredInstrument;
  readonly strategyType: 'intraday' | 'swing';
  /** IST dates, both included. */
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  readonly intervalMinutes: number;
  readonly capital: Paise;
  /** Option legs on the index; without them the instrument itself is traded. */
  readonly legs?: OptionsLegsConfig | undefined;
  readonly fill?: FillModel | undefined;
  /** Futures entries: margin-sized (default) or a fixed number of lots. */
  readonly futuresSizing?: FuturesSizing | undefined;
  /** Stock entries: all-in (default), a quantity or a percentage. */
  readonly equitySizing?: Sizing | undefined;
  /** Option legs' charges instead of the plan's (the CLI's --charges). */
  readonly optionsCharges?: ChargesConfig | undefined;
  /** Loading progress, 0 to 60 (%); may throw to stop (a cancelled run). */
  readonly onProgress?: ((percent: number) => Promise<void>) | undefined;
}

function planOf(request: StoredRunRequest): TradePlan {
  const plan = tradePlanOf(request.instrument, { strategyType: request.strategyType, legs: request.legs });
  if (!plan.ok) throw new StoredRunError(plan.error);
  if (plan.value.kind !== 'option-legs' || request.optionsCharges === undefined) return plan.value;
  return { ...plan.value, charges: request.optionsCharges };
}

function baseConfig(request: StoredRunRequest, charges: ChargesConfig): BacktestConfigInput {
  return {
    capital: request.capital, type: request.strategyType, instrument: request.instrument.tradingSymbol, direction: 'long-only', charges,
    ...(request.fill === undefined ? {} : { fill: request.fill }),
  };
}

async function prepareLegs(request: StoredRunRequest, context: { plan: Extract<TradePlan, { kind: 'option-legs' }>; series: BarSeries }): Promise<PreparedRun> {
  const { pool, dateRange, intervalMinutes } = request;
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'INDIA VIX'`);
  const vixId = rows[0]?.instrument_id;
  const vix = vixId === undefined ? undefined
    : await loadRunCandles({ pool, instrumentId: vixId, dateRange, intervalMinutes, onChunk: async (fraction) => request.onProgress?.(45 + fraction * 15) });
  if (vix === undefined || vix.length === 0) throw new StoredRunError(`no stored INDIA VIX candles from ${dateRange.from} to ${dateRange.to} (the synthetic option chain needs them)`);
  const legCandles = await StoredLegCandles.find(pool, {
    underlyingId: request.instrument.instrumentId, from: istEpochMs(dateRange.from, '00:00'), to: istEpochMs(addDays(dateRange.to, 1), '00:00'),
  });
  const { legs } = context.plan;
  const { dailyMaxLoss, dailyMaxProfit } = dailyLimitsOf(legs);
  const fill = request.fill ?? 'next-open';
  const legsTrader = { config: legs, vix: vixAtBars(context.series, vix), fill };
  const traderOptions = { ...legsTrader, slippage: { kind: 'none' }, candles: legCandles } as const;
  return {
    plan: context.plan, series: context.series, legCandles, legsTrader,
    trader: optionsLegsTraderFactory(traderOptions),
    windowTraders: optionsLegsWindowTraders(traderOptions),
    config: {
      ...baseConfig(request, context.plan.charges),
      ...(dailyMaxLoss === undefined ? {} : { dailyMaxLoss: dailyMaxLoss as Paise }),
      ...(dailyMaxProfit === undefined ? {} : { dailyMaxProfit: dailyMaxProfit as Paise }),
    },
  };
}

/** The futures chain of an index over the series, with the stored candles of the contracts it trades. */
async function prepareFutures(request: StoredRunRequest, context: { plan: Extract<TradePlan, { kind: 'index-futures' }>; series: BarSeries }): Promise<PreparedRun> {
  const { plan, series } = context;
  const planned = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof FuturesPlanError || error instanceof RangeError) throw new StoredRunError(error.message);
      throw error;
    }
  };
  const schedule = { underlying: plan.underlying, type: request.strategyType, rollTime: ROLL_TIME };
  const runs = planned(() => futuresContractRuns({ ...schedule, time: series.time, length: series.length }));
  const candles = await StoredContractCandles.load(request.pool, {
    underlyingId: request.instrument.instrumentId, symbols: runs.map((run) => run.tradingSymbol), dateRange: request.dateRange, intervalMinutes: request.intervalMinutes,
  });
  await request.onProgress?.(60);
  const futures = { schedule, candles, ...(request.futuresSizing === undefined ? {} : { sizing: request.futuresSizing }) };
  const contracts = planned(() => futuresChainOf(futures, series));
  if (request.futuresSizing === undefined || request.futuresSizing.kind === 'margin') {
    const cost = contracts.oneLotCost(0, chargeModelOf(plan.charges));
    if (request.capital < cost.margin + cost.charges) {
      throw new StoredRunError(`the investment ${formatRupees(request.capital)} does not cover one lot of ${cost.tradingSymbol}: on ${istDate(series.time[0] as number)} `
        + `a lot of ${cost.lotSize} at ${formatRupees(cost.price)} needs an estimated margin of ${formatRupees(cost.margin)} plus ${formatRupees(cost.charges)} of charges`);
    }
  }
  return { plan, series, contracts, futures, config: baseConfig(request, plan.charges) };
}

/**
 * Reads the history and builds the engine's inputs for one run.
 * @example const prepared = await prepareStoredRun({ pool, instrument, strategyType: 'swing', dateRange, intervalMinutes: 15, capital })
 */
export async function prepareStoredRun(request: StoredRunRequest): Promise<PreparedRun> {
  const plan = planOf(request);
  const { instrument, dateRange } = request;
  const share = plan.kind === 'option-legs' ? 45 : 50;
  const candles = await loadRunCandles({
    pool: request.pool, instrumentId: instrument.instrumentId, dateRange, intervalMinutes: request.intervalMinutes,
    onChunk: async (fraction) => request.onProgress?.(fraction * share),
  });
  const series = seriesOf(candles);
  if (series.length === 0) throw new StoredRunError(`no stored candles for ${instrument.exchange}:${instrument.tradingSymbol} from ${dateRange.from} to ${dateRange.to}`);
  if (plan.kind === 'option-legs') return prepareLegs(request, { plan, series });
  if (plan.kind === 'index-futures') return prepareFutures(request, { plan, series });
  return { plan, series, config: { ...baseConfig(request, plan.charges), sizing: request.equitySizing ?? { kind: 'all-in' } } };
}

/**
 * Runs the engine on a prepared run; with option legs, again until every stored option candle it
 * asked for was loaded. What the engine throws comes back as EngineRunError; reading candles may
 * throw infrastructure errors as they are.
 */
export async function runPrepared(pool: pg.Pool, request: { prepared: PreparedRun; program: ProgramSource; dateRange: { from: IsoDate; to: IsoDate }; intervalMinutes: number }): Promise<BacktestResult> {
  const { prepared, program } = request;
  const range = { dateRange: request.dateRange, intervalMinutes: request.intervalMinutes };
  return passesUntilLoaded(pool, { candles: prepared.legCandles, range }, async () => runPreparedOnce(prepared, program));
}



// A backtest's inputs once loaded (PreparedRun) and what is computed from them without the
// database: one pass of the engine, and the summary of what the run traded. Kept apart from
// stored-run.ts (which loads them) so that a worker thread computing a run (jobs/backtest-thread.ts)
// loads the engine and these, not the database client.
import { DEFAULT_BACKTEST_CONFIG, FUTURES_MODEL_RATE, FuturesChain, runBacktest } from '@vyuha/engine';
import type { BacktestConfigInput, BacktestResult, BarSeries, FuturesChainOptions, OptionsLegsConfig, ProgramSource, RunBuffers, TraderFactory, WindowTraders } from '@vyuha/engine';
import { ContractCandles } from './contract-candles';
import type { StoredLegCandles } from './stored-candles';
import type { TradePlan } from './trade-plan';

export { ContractCandles } from './contract-candles';

/** A swing future is rolled on its expiry day at the strategy's square-off time (the config's default). */
export const ROLL_TIME = DEFAULT_BACKTEST_CONFIG.squareOff;

/** The engine refused the run's config or stopped: pure code, so it would do the same again. `cause` is what it threw. */
export class EngineRunError extends Error {
  override readonly name = 'EngineRunError';
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** How a run's futures chain was built, so that the same chain can be built again over a copy of the series. */
export interface FuturesRecipe {
  readonly schedule: Pick<FuturesChainOptions, 'underlying' | 'type' | 'rollTime'>;
  readonly sizing?: FuturesChainOptions['sizing'];
  readonly candles: ContractCandles;
}

/** A recipe as plain data (its candles as columns: a copy is a few typed arrays per contract), to post to a worker thread. */
export interface FuturesRecipeData {
  readonly schedule: FuturesRecipe['schedule'];
  readonly sizing?: FuturesRecipe['sizing'];
  readonly columns: ContractCandles['columns'];
}

export function recipeData(recipe: FuturesRecipe): FuturesRecipeData {
  return { schedule: recipe.schedule, columns: recipe.candles.columns, ...(recipe.sizing === undefined ? {} : { sizing: recipe.sizing }) };
}

export function recipeOfData(data: FuturesRecipeData): FuturesRecipe {
  return { schedule: data.schedule, candles: new ContractCandles(data.columns), ...(data.sizing === undefined ? {} : { sizing: data.sizing }) };
}

/**
 * The chain `recipe` builds over `series`: the same chain as the one built from the same recipe over
 * the same bars.
 */
export function futuresChainOf(recipe: FuturesRecipe, series: BarSeries): FuturesChain {
  return new FuturesChain({ ...recipe.schedule, index: series, candles: recipe.candles, ...(recipe.sizing === undefined ? {} : { sizing: recipe.sizing }) });
}

/** What an option-legs run's trader is made from, as plain data (its candles apart): worker threads make the same trader from it. */
export interface LegsTraderData {
  readonly config: OptionsLegsConfig;
  /** INDIA VIX in points at each bar of the series. */
  readonly vix: Float64Array;
  readonly fill: 'next-open' | 'close';
}

/** Everything the engine needs for the run. */
export interface PreparedRun {
  readonly plan: TradePlan;
  readonly series: BarSeries;
  readonly config: BacktestConfigInput;
  readonly trader?: TraderFactory;
  /** Option legs: the same traders made for a part of the bars (a walk-forward's windows), set with `trader`. */
  readonly windowTraders?: WindowTraders;
  readonly contracts?: FuturesChain;
  /** How `contracts` was built (set with it). */
  readonly futures?: FuturesRecipe;
  readonly legCandles?: StoredLegCandles;
  /** Option legs: what `trader` was made from, set with it. */
  readonly legsTrader?: LegsTraderData;
}

/**
 * One pass of the engine over a prepared run; what it throws comes back as EngineRunError. For a
 * run without option legs this is the whole run (runPrepared's loop ends after one pass).
 * `buffers`: the ledger's columns and the equity's runs of bars to write (RunBuffers), from a
 * caller that reads each result whole before its next run (a backtest thread); the result reads
 * them until then.
 */
export function runPreparedOnce(prepared: PreparedRun, program: ProgramSource, buffers?: RunBuffers): BacktestResult {
  try {
    return runBacktest({
      series: prepared.series, program, config: prepared.config,
      ...(prepared.trader === undefined ? {} : { trader: prepared.trader }),
      ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
      ...buffers,
    });
  } catch (error) {
    throw new EngineRunError(error);
  }
}

/**
 * What a finished run traded, for its result document and the results screen: the plan's kind and
 * charges, and for futures each contract traded with how it was priced ("model" where the
 * cost-of-carry model priced any of its bars).
 * @example tradedSummary(prepared, result) // { kind: 'index-futures', underlying: 'NIFTY', contracts: [{ tradingSymbol: 'NIFTY24DECFUT', prices: 'model', ... }], ... }
 */
export function tradedSummary(prepared: PreparedRun, result: BacktestResult): Record<string, unknown> {
  const { plan } = prepared;
  const charges = plan.charges.kind === 'schedule' ? { exchange: plan.charges.exchange, instrument: plan.charges.instrument } : null;
  if (plan.kind !== 'index-futures' || prepared.contracts === undefined) return { kind: plan.kind, charges };
  const traded = new Set(result.fills.map((fill) => fill.instrument));
  const contracts = prepared.contracts.runs.filter((run) => traded.has(run.tradingSymbol)).map((run) => ({
    tradingSymbol: run.tradingSymbol, expiry: run.expiry,
    prices: run.modelBars === 0 ? 'candles' : run.candleBars === 0 ? 'model' : 'candles and model',
  }));
  return {
    kind: plan.kind, underlying: plan.underlying, charges, rollTime: ROLL_TIME, modelRate: FUTURES_MODEL_RATE, contracts,
    modelPrices: contracts.some((contract) => contract.prices !== 'candles'),
  };
}

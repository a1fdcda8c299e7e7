// A PAPER run replaying stored history: the strategy's deployable configuration, the backtest's
// own preparation of the range (stored candles at the interval, the index's futures chain or the
// stock itself, the charges), the replay feed at the chosen speed, and the paper run (paper-run.ts)
// through an OMS on the paper venue. Its fills are the backtest's fills for the same range, to the
// paisa (test/trading-runner/paper-replay-parity.test.ts), because the kernel, the matching core
// and the charge model are the same code and the paper run checks every fill against the kernel's.
//
// Two entry points: `replayPaperRun` for a deployed strategy's run row (the runner worker), and
// `runPaperReplay` for a range someone prepared already (`vyuha paper`: the CLI's own options,
// prepared as `vyuha backtest` prepares them). Both end in the same runtime, and return the
// stepped kernel's result: with every venue fill checked against the kernel's, it is the run's.
//
// Option legs go to their own paper run (legs-replay.ts): the same request, the legs' contracts
// ticked from the prices the trader gives them, swing legs held across sessions and settled at
// their expiry by the OMS. What a replay does not do: some leg shapes (legs-paper-levels.ts says
// which), and MANUAL option legs; refused with the reason before anything is written. A MANUAL
// replay of an instrument holds still at each signal until the user decides (pending-signals.ts).
import { err, isoDate, istDate, istEpochDay, ok } from '@vyuha/core';
import type { IsoDate, Paise, Result } from '@vyuha/core';
import { GrowingBarSeries, parseDeployableConfig, startSteppedRun } from '@vyuha/engine';
import type { BacktestConfigInput, CompiledAlgorithm, DeployableConfig, FuturesSizing, Sizing } from '@vyuha/engine';
import type pg from 'pg';
import { compiledVersion } from '../../backtest/algorithm-version';
import { prepareStoredRun, StoredRunError } from '../../backtest/stored-run';
import type { PreparedRun } from '../../backtest/stored-run';
import { storedInstrumentOf } from '../../backtest/trade-plan';
import { contractInstrumentId } from '../../jobs/backtest-results';
import { ManualScheduler } from '../feeds/scheduler';
import { withFollowers } from '../follow/follower-desk';
import type { ReplaySpeed } from '../feeds/replay-request';
import { legsPaperRefusal } from './legs-paper-levels';
import { runLegsPaperReplay } from './legs-replay';
import { withPaperOms } from './paper-oms';
import { PaperRunFailure, playReplay } from './replay-common';
import type { PaperReplayControl, PaperReplayOutcome, PaperReplayRequest } from './replay-common';
import { PaperDivergence, PaperRun } from './paper-run';
import type { PauseInterval } from './paper-run';
import { gatedProgram } from './pending-signals';


/**
 * How long (wall time) a MANUAL replay's signal waits for the user before it expires; the replay
 * holds still meanwhile, so its market time does not run out from under the person deciding.
 */
export const REPLAY_SIGNAL_WAIT_MS = 180_000;
export { PaperRunFailure, playReplay, RELEASE } from './replay-common';
export type {
  PaperReplayControl, PaperReplayOutcome, PaperReplayRequest, PaperReplaySummary, PausableRun, PreparedPaperReplay, ReplayedRun, StopReason,
} from './replay-common';

/** What a PAPER run's params hold (written by deploy_strategy: trading/deployments.ts). */
export interface PaperRunParams {
  readonly config: DeployableConfig;
  readonly instrumentId: number;
  readonly replay: { readonly from: IsoDate; readonly to: IsoDate; readonly speed: ReplaySpeed } | null;
  /** When the strategy was paused, in market time (written by the runner: strategy-runners.ts), so a resumed run pauses where it did. */
  readonly pauses: readonly PauseInterval[];
}

/** Reads a run's params; every problem named. */
export function readPaperRunParams(params: unknown): Result<PaperRunParams, string> {
  if (typeof params !== 'object' || params === null) return err('the run has no params');
  const record = params as Record<string, unknown>;
  const raw = typeof record.config === 'string' ? JSON.parse(record.config) as unknown : record.config;
  const config = parseDeployableConfig(raw);
  if (!config.ok) return err(`the run's configuration is not valid: ${config.error.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}`);
  const instrumentId = record.instrumentId;
  if (typeof instrumentId !== 'number' || !Number.isSafeInteger(instrumentId)) return err('the run names no instrument id');
  const pauses = Array.isArray(record.pauses) ? (record.pauses as unknown[]).filter(isPause) : [];
  const replay = record.replay;
  if (replay === null || replay === undefined) return ok({ config: config.value, instrumentId, replay: null, pauses });
  const { from, to, speed } = replay as Record<string, unknown>;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof speed !== 'number') return err('the run\'s replay needs from, to and speed');
  return ok({ config: config.value, instrumentId, replay: { from: isoDate(from), to: isoDate(to), speed: speed as ReplaySpeed }, pauses });
}

function isPause(value: unknown): value is PauseInterval {
  const pause = value as { fromMs?: unknown; toMs?: unknown } | null;
  return typeof pause?.fromMs === 'number' && (pause.toMs === null || typeof pause.toMs === 'number');
}

/** The kernel config of a deployable configuration over a prepared range: the backtest's, plus the strategy's exits and limits. */
export function paperConfigOf(prepared: PreparedRun, config: DeployableConfig): BacktestConfigInput {
  return {
    ...prepared.config,
    ...(config.stopLoss === undefined ? {} : { stopLoss: config.stopLoss }),
    ...(config.target === undefined ? {} : { target: config.target }),
    ...(config.trailingStop === undefined ? {} : { trailingStop: config.trailingStop }),
    ...(config.dailyMaxLoss === undefined ? {} : { dailyMaxLoss: config.dailyMaxLoss }),
    ...(config.dailyMaxProfit === undefined ? {} : { dailyMaxProfit: config.dailyMaxProfit }),
  };
}

/** The futures or stock sizing the backtest's preparation takes, from the strategy's sizing. */
export function sizingOf(config: DeployableConfig): { futuresSizing?: FuturesSizing; equitySizing?: Sizing } {
  const sizing = config.sizing;
  if (sizing.kind === 'lots') return { futuresSizing: { kind: 'lots', lots: sizing.lots } };
  if (sizing.kind === 'all-in') return {};
  return { equitySizing: sizing };
}

/** Prepares the replayed range as the backtest would (the same candles, chain, charges and trader). */
export async function preparePaperReplay(pool: pg.Pool, params: PaperRunParams): Promise<PreparedRun> {
  const { config, replay } = params;
  if (replay === null) throw new PaperRunFailure('this run has no replay range; runs on the simulated market are not started by the replay runner');
  const legsRefusal = config.legs === null ? undefined : legsPaperRefusal(config.legs, config.type);
  if (legsRefusal !== undefined) throw new PaperRunFailure(legsRefusal);
  if (config.manual && config.legs !== null) throw new PaperRunFailure('MANUAL option legs are not replayed yet; deploy them on the market or without manual mode');
  return prepareDeployedRange(pool, { config, instrumentId: params.instrumentId, dateRange: { from: replay.from, to: replay.to } });
}

/**
 * A deployed strategy's instrument over IST dates, prepared as the backtest prepares it (candles at
 * its interval, an index's futures chain, charges, option legs); what the store cannot give is a
 * PaperRunFailure (`needs` says what for).
 */
export async function prepareDeployedRange(
  pool: pg.Pool,
  request: { readonly config: DeployableConfig; readonly instrumentId: number; readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate }; readonly needs?: string },
): Promise<PreparedRun> {
  const { config, instrumentId } = request;
  const { rows } = await pool.query<{ exchange: string; trading_symbol: string; name: string }>(
    'SELECT exchange, trading_symbol, name FROM instruments WHERE instrument_id = $1', [instrumentId]);
  const row = rows[0];
  if (row === undefined) throw new PaperRunFailure(`instrument ${instrumentId} no longer exists`);
  const instrument = await storedInstrumentOf(pool, { instrumentId, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name });
  try {
    return await prepareStoredRun({
      pool, instrument, strategyType: config.type, dateRange: request.dateRange, intervalMinutes: config.interval,
      capital: config.investment as Paise, ...sizingOf(config), ...(config.legs === null ? {} : { legs: config.legs }),
    });
  } catch (error) {
    if (error instanceof StoredRunError) throw new PaperRunFailure(request.needs === undefined ? error.message : `${error.message}: ${request.needs}`);
    throw error;
  }
}

/** The run's algorithm version, compiled; PaperRunFailure when it is gone or no longer compiles. */
export async function compiledAlgorithmOf(pool: pg.Pool, config: DeployableConfig): Promise<CompiledAlgorithm> {
  const { id, version } = config.algorithm;
  const compiled = await compiledVersion(pool, { id, version, label: id });
  if (!compiled.ok) throw new PaperRunFailure(compiled.error);
  return compiled.value;
}

export interface PaperReplayOptions extends PaperReplayControl {
  readonly pool: pg.Pool;
  readonly runId: string;
}

/**
 * Replays a PAPER run's range through the runtime: feed, candle builder, kernel, OMS, paper
 * venue. The caller owns the run's status (the runner worker: strategy-runners.ts).
 */
export async function replayPaperRun(options: PaperReplayOptions): Promise<PaperReplayOutcome> {
  const { pool, runId } = options;
  const { rows } = await pool.query<{ user_id: string; strategy_id: string | null; params: unknown; algo_id: string | null }>(
    `SELECT r.user_id, r.strategy_id, r.params, s.algo_id FROM strategy_runs r LEFT JOIN strategies s ON s.strategy_id = r.strategy_id
     WHERE r.run_id = $1 AND r.kind = 'PAPER'`, [runId]);
  const run = rows[0];
  if (run === undefined) throw new PaperRunFailure(`run ${runId} is not a PAPER run`);
  const params = readPaperRunParams(run.params);
  if (!params.ok) throw new PaperRunFailure(params.error);
  const prepared = await preparePaperReplay(pool, params.value);
  const program = await compiledAlgorithmOf(pool, params.value.config);
  const { config, replay } = params.value;
  return runPaperReplay({
    ...options, userId: run.user_id, strategyId: run.strategy_id, algoId: run.algo_id, instrumentId: params.value.instrumentId,
    prepared: { ...prepared, config: paperConfigOf(prepared, config) }, program, intervalMinutes: config.interval,
    // preparePaperReplay refused a run without a range.
    replay: replay as NonNullable<typeof replay>, pauses: options.pauses ?? params.value.pauses,
    ...(config.manual ? { manual: { instrument: config.instrument } } : {}),
  });
}

/**
 * Replays a prepared range through the runtime (feed, candle builder, stepped kernel, OMS, paper
 * venue) under an existing PAPER run row; the caller owns the row's status. Throws
 * PaperRunFailure for what the run cannot do (option legs, a feed that failed) and
 * PaperDivergence (paper-run.ts) when a venue fill is not the kernel's.
 * @example (await runPaperReplay({ pool, runId, userId, strategyId: null, algoId: null, instrumentId, prepared, program, intervalMinutes: 5, replay })).result.fills
 */
export async function runPaperReplay(request: PaperReplayRequest): Promise<PaperReplayOutcome> {
  const { pool, runId, userId, prepared, intervalMinutes, instrumentId } = request;
  if (prepared.plan.kind === 'option-legs') return runLegsPaperReplay(request);
  const stored = prepared.series;
  const series = prepared.contracts === undefined ? new GrowingBarSeries(stored.length) : GrowingBarSeries.over(stored);
  // The chain reads the stored columns the series grows in; keep a copy of the times for the day ends.
  const times = Float64Array.from(stored.time.subarray(0, stored.length));
  // MANUAL: the program's signals wait for the user; the replay holds still until each is decided.
  const { gate, source } = gatedProgram(request.program, {
    manual: request.manual !== undefined, pool, runId, strategyId: request.strategyId, userId, instrument: request.manual?.instrument ?? '', series,
    expiresAt: 0, signalsFrom: 0, replayWaitMs: REPLAY_SIGNAL_WAIT_MS, ...(request.signal === undefined ? {} : { abort: request.signal }),
  });
  const stepped = startSteppedRun({
    series, program: source, intervalMinutes, config: prepared.config,
    ...(prepared.contracts === undefined ? {} : { contracts: prepared.contracts }),
  });
  if (gate !== undefined) gate.direction = stepped.config.direction;
  const clock = new ManualScheduler(times[0] ?? 0);
  const session = {
    pool, runId, userId, strategyId: request.strategyId, algoId: request.algoId, clock, killSwitches: request.killSwitches, log: request.log,
    rules: { tickSizePaise: stepped.config.tickSize, slippage: stepped.config.slippage }, charges: stepped.config.charges, strategyMaxLossPaise: prepared.config.dailyMaxLoss,
  };
  // A published strategy's subscribers follow this run (follow/follower-desk.ts); a handed-over run keeps them for whoever resumes it.
  const following = { ...session, publisherRunId: runId, killSwitches: request.killSwitches };
  const ending = { released: (outcome: PaperReplayOutcome) => outcome.released, isRunEnding: (error: unknown) => error instanceof PaperRunFailure || error instanceof PaperDivergence };
  return withPaperOms(session, async ({ oms, venue }) => withFollowers(following, async (mirror) => {
    const last = times.length - 1;
    const { plan } = prepared;
    const underlying = { instrumentId, tradingSymbol: plan.kind === 'index-futures' ? plan.underlying : stepped.config.instrument };
    const contracts = prepared.contracts;
    const paper = new PaperRun({
      runId, stepped, series, intervalMinutes, exchange: 'NSE', signalInstrumentId: instrumentId,
      oms, venue, clock, product: stepped.config.type === 'intraday' ? 'MIS' : plan.kind === 'index-futures' ? 'NRML' : 'CNC',
      ...(contracts === undefined ? {} : { tradedPrices: contracts.prices, contractAt: (index: number) => contracts.symbolAt(index) }),
      instrumentIdOf: async (symbol) => (symbol === stepped.config.instrument ? instrumentId
        : contractInstrumentId(pool, { underlying, symbol, tradeDate: istDate(clock.now()) })),
      endingOf: (index) => ({
        endOfData: index === last,
        endOfDay: index < last && istEpochDay(times[index + 1] as number) !== istEpochDay(times[index] as number),
      }),
      ...(request.pauses === undefined ? {} : { pauses: request.pauses }),
      ...(mirror === undefined ? {} : { mirror }),
      ...(gate === undefined ? {} : { signalGate: gate }),
    });
    request.onPaperRun?.(paper);
    return playReplay(request, { paper, oms, result: () => stepped.result(), ...(gate === undefined ? {} : { hold: (feed) => gate.holdWith(feed) }) });
  }, ending));
}


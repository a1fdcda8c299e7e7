// What every paper replay shares, whichever run it drives (replay-run.ts: an instrument or its
// futures; legs-replay.ts: option legs): the request, how it ends, the failure a run reports, and
// the play-out of the replay feed through the run. Kept apart so the two runs' files need not
// import each other.
import type { BacktestConfigInput, BacktestResult, BarSeries, CompiledAlgorithm, FeedTick, FuturesChain, TraderFactory } from '@vyuha/engine';
import type { IsoDate } from '@vyuha/core';
import type pg from 'pg';
import type { StoredLegCandles } from '../../backtest/stored-candles';
import type { TradePlan } from '../../backtest/trade-plan';
import { ReplayFeed } from '../feeds/replay-feed';
import type { ReplaySpeed } from '../feeds/replay-request';
import { WallScheduler } from '../feeds/scheduler';
import type { Scheduler } from '../feeds/scheduler';
import type { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import type { PaperRun } from './paper-run';
import type { PauseInterval } from './pause-book';
import { ReplayProgress } from './replay-progress';

/** What the runner does with a paper run while it runs (PaperRun, LegsPaperRun): pause and resume it, and keep its pauses. */
export type PausableRun = Pick<PaperRun, 'setPaused' | 'pauseIntervals'>;

/** A run that cannot go on, for its own reasons (not the infrastructure's): the run ends in ERROR with this. */
export class PaperRunFailure extends Error {
  override readonly name = 'PaperRunFailure';
  /** Units the failing run squared off on its way out (ERROR: SQUARED OFF when above 0). */
  squaredOff = 0;
}

/** How a replay is run and paced, whoever prepared it. */
export interface PaperReplayControl {
  /** Shared by every OMS of the process (one LISTEN connection); opened here when absent. */
  readonly killSwitches?: KillSwitchWatch;
  /** Paces the replay at speeds above 0 (default the wall clock). */
  readonly pacing?: Scheduler;
  /** Ends the replay early: aborted with a StopReason, a stop (with or without the square-off); with RELEASE, a hand-over (nothing is closed). */
  readonly signal?: AbortSignal;
  readonly log?: (message: string) => void;
  /** Pauses already recorded for the run (market time). */
  readonly pauses?: readonly PauseInterval[];
  /** Told the paper run once it exists (the runner pauses and resumes it). */
  readonly onPaperRun?: (paper: PausableRun) => void;
}

/** What a finished replay did. */
export interface PaperReplaySummary {
  readonly bars: number;
  readonly fills: number;
  /** A stop ended it early (what was open was closed at the last bar's close). */
  readonly stopped: boolean;
  /** The process let go of it (`signal` aborted with RELEASE): nothing was closed; it resumes elsewhere. */
  readonly released: boolean;
  /** Units closed at once by a stop that asked for the square-off. */
  readonly squaredOff: number;
}

/** A replay's summary and the stepped kernel's result over the bars it processed (its fills are the paper venue's). */
export interface PaperReplayOutcome extends PaperReplaySummary {
  readonly result: BacktestResult;
}

/** The abort reason of a stop: `squareOff` closes what is open at once (the last traded price). */
export interface StopReason {
  readonly squareOff: boolean;
}

/** The abort reason that hands a run over instead of stopping it. */
export const RELEASE = 'release';

/** A range prepared as the backtest prepares it: what is traded, the stored bars at the interval, the kernel's config, an index's futures chain. */
export interface PreparedPaperReplay {
  readonly plan: TradePlan;
  readonly series: BarSeries;
  readonly config: BacktestConfigInput;
  readonly contracts?: FuturesChain | undefined;
  /** Option legs: `prepareStoredRun`'s trader and stored option candles. */
  readonly trader?: TraderFactory | undefined;
  readonly legCandles?: StoredLegCandles | undefined;
}

/** Everything `runPaperReplay` needs: the run row's ids, the prepared range and how to replay it. */
export interface PaperReplayRequest extends PaperReplayControl {
  readonly pool: pg.Pool;
  /** A PAPER strategy_runs row of `userId` (IN PROGRESS): its orders, fills and positions are written under it. */
  readonly runId: string;
  readonly userId: string;
  readonly strategyId: string | null;
  /** Written on every order (the strategy's algo id), or null. */
  readonly algoId: string | null;
  /** The instrument whose stored candles are replayed (the signal instrument; the traded one too unless `prepared.contracts`). */
  readonly instrumentId: number;
  readonly prepared: PreparedPaperReplay;
  readonly program: CompiledAlgorithm;
  readonly intervalMinutes: number;
  /** IST dates, both included: the range `prepared` covers. */
  readonly replay: { readonly from: IsoDate; readonly to: IsoDate; readonly speed: ReplaySpeed };
  /** MANUAL: each signal waits for the user's decision, the replay held still meanwhile (`instrument`: the strategy's name for what it trades). */
  readonly manual?: { readonly instrument: string };
}

/** What a replay drives of a paper run (PaperRun, or option legs' LegsPaperRun). */
export interface ReplayedRun {
  onTick(tick: FeedTick): Promise<void>;
  finish(): Promise<void>;
  stop(options: { readonly squareOff: boolean }): Promise<number>;
  detach(): void;
  readonly barsProcessed: number;
  readonly fills: number;
}

/**
 * Plays the request's range through a paper run: the replay feed at its speed (how far it has got
 * written on the run row about once a second: replay-progress.ts), then the end as
 * the run's owner must see it: finished, stopped (with or without the square-off), handed over
 * (RELEASE: nothing closed), or failed (what it held closed, PaperRunFailure thrown).
 */
export async function playReplay(
  request: Pick<PaperReplayRequest, 'pool' | 'runId' | 'log' | 'pacing' | 'signal' | 'instrumentId' | 'intervalMinutes' | 'replay'>,
  run: { readonly paper: ReplayedRun; readonly oms: Oms; readonly result: () => BacktestResult; readonly hold?: (feed: ReplayFeed) => void },
): Promise<PaperReplayOutcome> {
  const { pool, replay, instrumentId, intervalMinutes } = request;
  const { paper, oms } = run;
  const feed = await ReplayFeed.load({
    pool, scheduler: request.pacing ?? new WallScheduler(),
    request: { instrumentIds: [instrumentId], from: replay.from, to: replay.to, intervalMinutes, speed: replay.speed },
  });
  if (!feed.ok) throw new PaperRunFailure(feed.error.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
  run.hold?.(feed.value);
  const stop = (): void => feed.value.stop();
  request.signal?.addEventListener('abort', stop, { once: true });
  // How far it has got goes on the run row beside the run (replay-progress.ts), never in its way.
  const progress = new ReplayProgress({ pool, runId: request.runId, log: request.log });
  const end = await feed.value.run({
    onTick: async (tick) => {
      await paper.onTick(tick);
      const { delivered, total } = feed.value.progress;
      progress.note(tick.time, delivered, total);
    },
  });
  request.signal?.removeEventListener('abort', stop);
  await progress.flush();
  const outcome = (summary: Omit<PaperReplaySummary, 'bars' | 'fills'>): PaperReplayOutcome => ({
    bars: paper.barsProcessed, fills: paper.fills, ...summary, result: run.result(),
  });
  if (end.reason === 'failed') {
    // The run cannot go on: nothing of it may stay working or open.
    const failure = new PaperRunFailure(end.message);
    // What the OMS is doing (a kill switch's square-off) finishes first: the run's own square-off reads the positions it leaves.
    await oms.settled();
    failure.squaredOff = await paper.stop({ squareOff: true }).catch(() => 0);
    throw failure;
  }
  if (end.reason === 'stopped' && request.signal?.reason === RELEASE) {
    // Handed over, not ended: what is open stays open for whoever resumes the run.
    paper.detach();
    return outcome({ stopped: false, released: true, squaredOff: 0 });
  }
  if (end.reason === 'stopped') {
    const squareOff = (request.signal?.reason as { squareOff?: unknown } | undefined)?.squareOff === true;
    const squaredOff = await paper.stop({ squareOff });
    return outcome({ stopped: true, released: false, squaredOff });
  }
  await paper.finish();
  return outcome({ stopped: false, released: false, squaredOff: 0 });
}

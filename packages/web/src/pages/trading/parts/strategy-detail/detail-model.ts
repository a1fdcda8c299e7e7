// The strategy detail page's arithmetic, pure so it is tested beside it: which run is shown, the
// chart's window and how far a replay has got (the runner writes its market time on the run row
// about once a second: params.replayedUntilMs), entry and exit markers from a run's fills, the
// equity and drawdown curves from its daily P&L, and an ERROR run's reason in words.
// Money is integer paise here; the curves are rupees because the chart draws rupees.
import { addDays, istDate, isIsoDate, type IsoDate } from '@vyuha/core';
import type { ChartCandles, SignalMark } from '../../chart/chart-candles';
import type { CurvePoint } from '../../backtest/results/performance';

/** The run kinds of a deployed strategy (backtests have their own screens and never count as trading). */
export const TRADING_RUN_KINDS: readonly string[] = ['PAPER', 'LIVE'];

export interface RunChoice {
  readonly run_id: string;
  readonly status: string;
}

/**
 * The run the page shows: the one asked for when it is the strategy's, else the newest in
 * progress (the current run), else the newest. Runs come newest first.
 * @example pickRun([{ run_id: 'b', status: 'COMPLETE' }, { run_id: 'a', status: 'IN PROGRESS' }], undefined) // the run 'a'
 */
export function pickRun<T extends RunChoice>(runs: readonly T[], requested: string | null | undefined): T | undefined {
  return runs.find((run) => run.run_id === requested) ?? runs.find((run) => run.status === 'IN PROGRESS') ?? runs[0];
}

export interface Replay {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly speed: number;
}

/** The replay a deployed run's params carry (deploy_strategy's `replay`), or undefined for a run on the market. */
export function replayOf(params: unknown): Replay | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const replay = (params as { replay?: unknown }).replay;
  if (replay === null || typeof replay !== 'object') return undefined;
  const { from, to, speed } = replay as { from?: unknown; to?: unknown; speed?: unknown };
  if (typeof from !== 'string' || typeof to !== 'string' || !isIsoDate(from) || !isIsoDate(to)) return undefined;
  return { from, to, speed: typeof speed === 'number' ? speed : 0 };
}

/**
 * The market time a replay has reached (epoch ms), as its runner writes it on the run's params
 * (params.replayedUntilMs, about once a second), or undefined before its first write.
 * @example replayReachedOf({ replay: { from: '2026-09-01', to: '2026-09-30', speed: 600 }, replayedUntilMs: 1788000000000 }) // 1788000000000
 */
export function replayReachedOf(params: unknown): number | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const reached = (params as { replayedUntilMs?: unknown }).replayedUntilMs;
  const value = typeof reached === 'string' ? Number(reached) : reached;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Up to when a run's chart shows its candles (candlesUntil): a run on the market, all it loaded
 * (undefined); a replay in progress, up to the later of the market time it has reached and its
 * latest order or fill (nothing before either); an ended replay, up to where it reached (a stopped
 * one ends there), or all of its range when the run never wrote it.
 * @example replayShownUntil({ replay, inProgress: true, reachedMs: 2000, writtenMs: 1500 }) // 2000
 */
export function replayShownUntil(run: {
  readonly replay: Replay | undefined; readonly inProgress: boolean; readonly reachedMs: number | undefined; readonly writtenMs: number | undefined;
}): number | undefined {
  if (run.replay === undefined) return undefined;
  if (!run.inProgress) return run.reachedMs;
  const known = [run.reachedMs, run.writtenMs].filter((time): time is number => time !== undefined);
  return known.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...known);
}

/** The speed in words. @example speedText(600) // '600x' */
export function speedText(speed: number): string {
  return speed === 0 ? 'as fast as possible' : `${speed}x`;
}

/** Longest stretch of a run on the market the chart loads, in days back from its last day. */
export const MARKET_CHART_DAYS = 10;

/**
 * The dates of candles the chart loads for a run: a replay's whole range (the chart then shows
 * it up to how far the replay has got); a run on the market, its last MARKET_CHART_DAYS days up
 * to its finish or today.
 * @example chartRange({ replay: { from: '2026-09-01', to: '2026-09-30', speed: 600 }, startedAt: 0, finishedAt: undefined, today: '2026-11-27' }) // { from: '2026-09-01', to: '2026-09-30' }
 */
export function chartRange(run: { replay: Replay | undefined; startedAt: number; finishedAt: number | undefined; today: IsoDate }): { from: IsoDate; to: IsoDate } {
  if (run.replay !== undefined) return { from: run.replay.from, to: run.replay.to };
  const to = run.finishedAt === undefined ? run.today : istDate(run.finishedAt);
  const started = istDate(run.startedAt);
  const earliest = addDays(to, -MARKET_CHART_DAYS);
  return { from: started > earliest ? started : earliest, to };
}

/** An order as the markers need it, with its fills (times as epoch ms). */
export interface FilledOrder {
  readonly side: 'BUY' | 'SELL';
  readonly instrumentId: number;
  readonly fills: readonly { readonly quantity: number; readonly time: number }[];
}

/**
 * One marker per fill of the run, in time order, at the bar it falls in: a fill that opens or adds
 * to its instrument's position is an entry (buy below the bar, sell above it); one that reduces or
 * closes it is an exit. A strategy on an index trades its futures or options, so every instrument
 * the run traded is marked on the index's chart, each position followed on its own. A fill that
 * flips a position is shown as the exit it starts with.
 * @example tradeMarks([{ side: 'BUY', instrumentId: 1, fills: [{ quantity: 50, time: 1 }] }, { side: 'SELL', instrumentId: 1, fills: [{ quantity: 50, time: 2 }] }])
 *   // [{ time: 1, kind: 'buy' }, { time: 2, kind: 'exit' }]
 */
export function tradeMarks(orders: readonly FilledOrder[]): SignalMark[] {
  const fills = orders
    .flatMap((order) => order.fills.map((fill) => ({ ...fill, side: order.side, instrumentId: order.instrumentId })))
    .sort((a, b) => a.time - b.time);
  const net = new Map<number, number>();
  return fills.map((fill) => {
    const before = net.get(fill.instrumentId) ?? 0;
    const signed = fill.side === 'BUY' ? fill.quantity : -fill.quantity;
    net.set(fill.instrumentId, before + signed);
    const reduces = before !== 0 && Math.sign(signed) !== Math.sign(before);
    const kind: SignalMark['kind'] = reduces ? 'exit' : fill.side === 'BUY' ? 'buy' : 'sell';
    return { time: fill.time, kind };
  });
}

/**
 * The candles up to and including the bar that contains `untilMs` (all of them when undefined),
 * as views over the same columns: no copy.
 */
export function candlesUntil(candles: ChartCandles, untilMs: number | undefined): ChartCandles {
  if (untilMs === undefined) return candles;
  let end = 0;
  while (end < candles.time.length && (candles.time[end] as number) <= untilMs) end += 1;
  if (end === candles.time.length) return candles;
  const cut = (column: Float64Array | readonly number[]): Float64Array | readonly number[] => (column instanceof Float64Array ? column.subarray(0, end) : column.slice(0, end));
  return {
    time: cut(candles.time), open: cut(candles.open), high: cut(candles.high), low: cut(candles.low), close: cut(candles.close),
    ...(candles.volume === undefined ? {} : { volume: cut(candles.volume) }),
  };
}

/** A day of a run's daily_pnl. */
export interface DayPnl {
  readonly date: string;
  readonly pnlPaise: number;
}

export interface EquityCurves {
  /** Cumulative P&L after charges at each day's end, rupees. */
  readonly equity: CurvePoint[];
  /** How far below its best so far the equity is, rupees (0 or negative). */
  readonly drawdown: CurvePoint[];
  readonly totalPaise: number;
  readonly maxDrawdownPaise: number;
}

/**
 * Equity and drawdown from a run's days (their P&L after charges), in date order.
 * @example equityCurves([{ date: '2026-09-01', pnlPaise: 1000 }, { date: '2026-09-02', pnlPaise: -3000 }]).maxDrawdownPaise // -3000
 */
export function equityCurves(days: readonly DayPnl[]): EquityCurves {
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const equity: CurvePoint[] = [];
  const drawdown: CurvePoint[] = [];
  let total = 0;
  let peak = 0;
  let worst = 0;
  for (const day of sorted) {
    total += day.pnlPaise;
    peak = Math.max(peak, total);
    worst = Math.min(worst, total - peak);
    equity.push({ time: day.date, value: total / 100 });
    drawdown.push({ time: day.date, value: (total - peak) / 100 });
  }
  return { equity, drawdown, totalPaise: total, maxDrawdownPaise: worst };
}

/**
 * Why a run ended in ERROR, in words: its error, else its status reason, else a plain sentence;
 * undefined for a run that did not end in error.
 * @example runErrorWords({ status: 'ERROR', error: null, status_reason: 'broker session expired' }) // 'broker session expired'
 */
export function runErrorWords(run: { readonly status: string; readonly error: string | null; readonly status_reason: string | null }): string | undefined {
  if (!run.status.startsWith('ERROR')) return undefined;
  const words = [run.error, run.status_reason].find((text) => typeof text === 'string' && text.trim() !== '');
  return words?.trim() ?? 'The run stopped with an error and recorded no reason.';
}

/** Today in IST of `nowMs`. */
export function todayOf(nowMs: number): IsoDate {
  return istDate(nowMs);
}

// INDIA VIX for option legs on the market: the synthetic chain prices every leg from the VIX of
// the bar (engine options-legs/leg-pricing.ts), so the run builds VIX bars at the strategy's
// interval from the market's VIX ticks (the same feed as the index) and gives each bar of the
// index the VIX as it stood when that bar opened: the close of the VIX bar that ended before it.
//
// Why the bar before and not the bar's own close (which the backtest reads from stored candles):
// live, a leg entered at a bar's open is priced at that open, and the venue prices every tick of
// the bar as it comes; neither may read a VIX the market has not shown yet. One level for the
// whole bar also keeps the kernel's premiums and the venue's ticks on the same numbers.
//
// Bars before the run's own (warm-up, earlier sessions) take the stored VIX candles; the run's own
// take only ticks (live, or the market's past ticks on a resume), so a resumed run sees exactly the
// levels an uninterrupted one saw.
import { paiseToRupees } from '@vyuha/core';
import { barStartOf } from '@vyuha/engine';
import type { BarSeries, FeedTick } from '@vyuha/engine';

interface VixBar {
  /** Epoch ms of the last tick (or the stored candle's start) that set `close`. */
  at: number;
  /** Points. */
  close: number;
}

export class LegsMarketVix {
  /** VIX bars by start time, kept in start order (appended as time goes on). */
  private readonly bars = new Map<number, VixBar>();
  private readonly starts: number[] = [];

  /**
   * @param request.intervalMinutes the strategy's bar interval.
   * @param request.ownFrom the first bar start that is the run's own: stored candles before it, ticks from it.
   */
  constructor(private readonly request: { readonly intervalMinutes: number; readonly ownFrom: number }) {}

  /** Stored VIX candles at the interval (paise), for the bars before the run's own. */
  addStored(candles: { readonly length: number; readonly time: ArrayLike<number>; readonly close: ArrayLike<number> }): void {
    for (let row = 0; row < candles.length; row += 1) {
      const start = candles.time[row] as number;
      if (start >= this.request.ownFrom) break;
      this.set(start, { at: start, close: paiseToRupees(candles.close[row] as number) });
    }
  }

  /** A VIX tick of the market (live, or played again on a resume); before the run's own bars it is ignored. */
  onTick(tick: FeedTick): void {
    if (tick.time < this.request.ownFrom) return;
    const start = barStartOf(tick.time, this.request.intervalMinutes);
    const bar = this.bars.get(start);
    if (bar === undefined) this.set(start, { at: tick.time, close: paiseToRupees(tick.price) });
    else if (tick.time >= bar.at) {
      bar.at = tick.time;
      bar.close = paiseToRupees(tick.price);
    }
  }

  /**
   * The VIX (points) when a bar starting at `barStart` opens: the close of the latest VIX bar
   * that started before it; undefined when the market has shown none.
   * @example vix.levelAt(istEpochMs('2026-11-25', '09:20')) // 14.62, the 09:15 VIX bar's close
   */
  levelAt(barStart: number): number | undefined {
    for (let index = this.starts.length - 1; index >= 0; index -= 1) {
      const start = this.starts[index] as number;
      if (start < barStart) return (this.bars.get(start) as VixBar).close;
    }
    return undefined;
  }

  /**
   * The level of every bar of `series` before `until` (its warm-up), written into `levels` (the
   * very first bars, with no VIX bar before them, take their own); the problem when none is known.
   */
  fillLevels(series: BarSeries, until: number, levels: Float64Array): string | undefined {
    for (let index = 0; index < until; index += 1) {
      const start = series.time[index] as number;
      const level = this.levelAt(start) ?? this.bars.get(start)?.close;
      if (level === undefined) return `no stored INDIA VIX at or before ${new Date(start).toISOString()} (the synthetic option chain needs it)`;
      levels[index] = level;
    }
    return undefined;
  }

  private set(start: number, bar: VixBar): void {
    if (!this.bars.has(start)) {
      // Ticks and candles come in time order, so a new bar is almost always the latest.
      let at = this.starts.length;
      while (at > 0 && (this.starts[at - 1] as number) > start) at -= 1;
      this.starts.splice(at, 0, start);
    }
    this.bars.set(start, bar);
  }
}

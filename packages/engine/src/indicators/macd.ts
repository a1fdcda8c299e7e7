import { warmUpSeries } from './block-warm-up';
import type { Indicator, IndicatorBar, IndicatorBlock } from './indicator';
import { ExponentialMovingAverage, requirePeriod } from './moving-averages';

/**
 * MACD: line = EMA(fast) - EMA(slow), signal = EMA(signal) of the line, histogram = line - signal.
 * Every EMA is SMA-seeded. Outputs: 0 line, 1 signal, 2 histogram; all NaN until `ready`, at bar
 * max(fast, slow) + signal - 1 (the contract: every output is NaN while warming up, so the line
 * waits for the signal although it is computed from bar max(fast, slow)).
 */
export class MovingAverageConvergenceDivergence implements Indicator {
  private readonly fast: ExponentialMovingAverage;
  private readonly slow: ExponentialMovingAverage;
  private readonly signal: ExponentialMovingAverage;
  private line = Number.NaN;

  constructor(options: { readonly fast: number; readonly slow: number; readonly signal: number }) {
    this.fast = new ExponentialMovingAverage(requirePeriod('fast', options.fast));
    this.slow = new ExponentialMovingAverage(requirePeriod('slow', options.slow));
    this.signal = new ExponentialMovingAverage(requirePeriod('signal', options.signal));
  }

  get ready(): boolean {
    return this.signal.ready;
  }

  update(input: number, _bar?: IndicatorBar): void {
    this.fast.update(input);
    this.slow.update(input);
    if (!this.fast.ready || !this.slow.ready) return;
    this.line = this.fast.value - this.slow.value;
    this.signal.update(this.line);
  }

  /**
   * `update` then `output(block.output)` bar by bar: until the signal EMA is ready (and with it the
   * other two) through `update` (warmUpSeries), then the same steps with the three smoothings in
   * locals (steadyBlock).
   */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const from = this.ready ? start : warmUpSeries(this, block, { start, end });
    if (from < end) this.steadyBlock(block, from, end);
  }

  private steadyBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    const { fast, slow, signal } = this;
    let index = start;
    const fastAlpha = fast.alpha;
    const slowAlpha = slow.alpha;
    const signalAlpha = signal.alpha;
    let fastValue = fast.value;
    let slowValue = slow.value;
    let signalValue = signal.value;
    let line = this.line;
    let updates = 0;
    for (; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input !== input) {
        out[index - outOffset] = Number.NaN;
        continue;
      }
      updates += 1;
      fastValue += fastAlpha * (input - fastValue);
      slowValue += slowAlpha * (input - slowValue);
      line = fastValue - slowValue;
      signalValue += signalAlpha * (line - signalValue);
      out[index - outOffset] = output === 0 ? line : output === 1 ? signalValue : output === 2 ? line - signalValue : Number.NaN;
    }
    fast.resume(fastValue, updates);
    slow.resume(slowValue, updates);
    signal.resume(signalValue, updates);
    this.line = line;
  }

  output(index: number): number {
    if (!this.signal.ready) return Number.NaN;
    if (index === 0) return this.line;
    if (index === 1) return this.signal.value;
    if (index === 2) return this.line - this.signal.value;
    return Number.NaN;
  }
}

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

  /** `update` then `output(block.output)` bar by bar in one loop: the same steps, no call per bar. */
  updateBlock(block: IndicatorBlock, start: number, end: number): void {
    const { values, valuesOffset, out, outOffset, output } = block;
    for (let index = start; index < end; index += 1) {
      const input = values[index - valuesOffset] as number;
      if (input === input) this.update(input);
      out[index - outOffset] = input === input ? this.output(output) : Number.NaN;
    }
  }

  output(index: number): number {
    if (!this.signal.ready) return Number.NaN;
    if (index === 0) return this.line;
    if (index === 1) return this.signal.value;
    if (index === 2) return this.line - this.signal.value;
    return Number.NaN;
  }
}

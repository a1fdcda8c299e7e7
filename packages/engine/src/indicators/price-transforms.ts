import type { Indicator, IndicatorBar } from './indicator';

/**
 * Heikin-Ashi candles. close = (open + high + low + close) / 4; open = (open + close) / 2 of the
 * first real bar, then the midpoint of the previous Heikin-Ashi open and close; high = max(high,
 * HA open, HA close); low = min(low, HA open, HA close). Outputs: 0 open, 1 high, 2 low, 3 close.
 * Ready after 1 bar.
 */
export class HeikinAshi implements Indicator {
  private haOpen = Number.NaN;
  private haHigh = Number.NaN;
  private haLow = Number.NaN;
  private haClose = Number.NaN;

  get ready(): boolean {
    return this.haClose === this.haClose;
  }

  update(_input: number, bar: IndicatorBar): void {
    const open = this.haClose === this.haClose ? (this.haOpen + this.haClose) / 2 : (bar.open + bar.close) / 2;
    const close = (bar.open + bar.high + bar.low + bar.close) / 4;
    this.haOpen = open;
    this.haClose = close;
    this.haHigh = Math.max(bar.high, open, close);
    this.haLow = Math.min(bar.low, open, close);
  }

  output(index: number): number {
    if (index === 0) return this.haOpen;
    if (index === 1) return this.haHigh;
    if (index === 2) return this.haLow;
    if (index === 3) return this.haClose;
    return Number.NaN;
  }
}

/**
 * On-balance volume: 0 on the first bar, then + volume when the close rises, - volume when it
 * falls, unchanged when it is flat. Ready after 1 bar.
 */
export class OnBalanceVolume implements Indicator {
  private total = Number.NaN;
  private previousClose = Number.NaN;

  get ready(): boolean {
    return this.total === this.total;
  }

  update(_input: number, bar: IndicatorBar): void {
    if (this.total !== this.total) this.total = 0;
    else if (bar.close > this.previousClose) this.total += bar.volume;
    else if (bar.close < this.previousClose) this.total -= bar.volume;
    this.previousClose = bar.close;
  }

  output(index: number): number {
    return index === 0 ? this.total : Number.NaN;
  }
}

// A hand-written SMA crossover as a SignalProgram: two exact rolling sums over the closes in
// paise (whole numbers, so the sums never drift), no compiler. The examples and the kernel benchmark use it until the compiled one replaces it.
// Signals: BUY on the bar where fast - slow > 0 and the last non-zero fast - slow before it was
// < 0 (the language's crossover), SELL on the mirror; nothing during the slow SMA's warm-up.
import { SIGNAL_BUY, SIGNAL_NONE, SIGNAL_SELL } from '../algorithm/program';
import type { BarSeries, PositionContext, Signal, SignalProgram } from '../algorithm/program';

/**
 * SMA(fast) / SMA(slow) crossover over `series.close`.
 * @example smaCrossoverProgram(series, { fast: 10, slow: 20 }).warmup // 20
 */
export function smaCrossoverProgram(series: BarSeries, periods: { fast: number; slow: number }): SignalProgram {
  const { fast, slow } = periods;
  const close = series.close;
  let fastSum = 0;
  let slowSum = 0;
  let lastDifference = 0;
  return {
    warmup: slow,
    onBar(index: number, _position: PositionContext): Signal {
      const value = Math.round((close[index] as number) * 100);
      fastSum += value;
      slowSum += value;
      if (index >= fast) fastSum -= Math.round((close[index - fast] as number) * 100);
      if (index >= slow) slowSum -= Math.round((close[index - slow] as number) * 100);
      if (index < slow - 1) return SIGNAL_NONE;
      // fast average - slow average, scaled by fast x slow: an exact integer, so a touch is 0, not a cross.
      const difference = fastSum * slow - slowSum * fast;
      let signal: Signal = SIGNAL_NONE;
      if (difference > 0 && lastDifference < 0) signal = SIGNAL_BUY;
      else if (difference < 0 && lastDifference > 0) signal = SIGNAL_SELL;
      if (difference !== 0) lastDifference = difference;
      return signal;
    },
  };
}

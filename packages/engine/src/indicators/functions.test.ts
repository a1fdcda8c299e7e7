import { describe, it, expect } from 'vitest';
import { createIndicator, indicatorWarmup } from './factory';
import { INDICATOR_FUNCTIONS, indicatorFunction } from './functions';
import { randomBars } from './indicator-test-support';

const NAMES = `sma ema wma rsi macd macd_signal macd_hist bb_upper bb_middle bb_lower atr supertrend supertrend_direction
  vwap stoch_k stoch_d adx plus_di minus_di cci donchian_upper donchian_lower donchian_middle pivot pivot_r1 pivot_r2
  pivot_r3 pivot_s1 pivot_s2 pivot_s3 ha_open ha_high ha_low ha_close obv prev_day_open prev_day_high prev_day_low
  prev_day_close orb_high orb_low`.split(/\s+/);

/** Every parameter at its default, or at its minimum when it has none. */
function defaults(name: string): number[] {
  const entry = indicatorFunction(name);
  if (entry === undefined) throw new Error(name);
  return entry.parameters.map((parameter) => parameter.default ?? Math.max(parameter.minimum, 5));
}

describe('INDICATOR_FUNCTIONS', () => {
  it('has exactly the functions of the language, each once', () => {
    expect(INDICATOR_FUNCTIONS.map((entry) => entry.name).sort()).toEqual([...NAMES].sort());
  });

  it.each(NAMES)('%s builds with its defaults and yields a finite output once warm', (name) => {
    const entry = indicatorFunction(name);
    expect(entry?.name).toBe(name);
    if (entry === undefined) return;
    const parameters = defaults(name);
    const indicator = createIndicator(entry.indicator, parameters);
    const bars = randomBars({ count: Math.max(indicatorWarmup(entry.indicator, parameters), 800), seed: name });
    for (const bar of bars) indicator.update(bar.close, bar);
    expect(indicator.ready).toBe(true);
    expect(Number.isFinite(indicator.output(entry.output))).toBe(true);
    for (const parameter of entry.parameters) {
      expect(parameter.minimum).toBeLessThanOrEqual(parameter.maximum);
      if (parameter.default !== undefined) expect(parameter.default).toBeGreaterThanOrEqual(parameter.minimum);
    }
    expect(entry.summary.length).toBeGreaterThan(5);
  });

  it('gives the documented defaults', () => {
    expect(defaults('macd_hist')).toEqual([12, 26, 9]);
    expect(defaults('bb_lower')).toEqual([20, 2]);
    expect(defaults('supertrend_direction')).toEqual([10, 3]);
    expect(defaults('stoch_d')).toEqual([14, 3, 3]);
    expect(defaults('stoch_k')).toEqual([14, 3]);
    expect(defaults('orb_low')).toEqual([15]);
    expect(indicatorFunction('sma')?.parameters[0]).toEqual({ name: 'period', kind: 'integer', minimum: 1, maximum: 1000 });
    expect(indicatorFunction('sma')?.input).toBe('series');
    expect(indicatorFunction('atr')?.input).toBe('bar');
  });

  it('maps several functions onto one indicator by output', () => {
    expect(['macd', 'macd_signal', 'macd_hist'].map((name) => indicatorFunction(name)?.output)).toEqual([0, 1, 2]);
    expect(indicatorFunction('stoch_d')).toMatchObject({ indicator: 'stoch', output: 1 });
    expect(indicatorFunction('minus_di')).toMatchObject({ indicator: 'adx', output: 2 });
    expect(indicatorFunction('pivot_s3')).toMatchObject({ indicator: 'pivot', output: 6 });
    expect(indicatorFunction('nope')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { checkExpression } from './checker';
import { formatExpressionError } from './expression-error';

function errors(source: string): string[] {
  const checked = checkExpression(source, { expect: 'boolean' });
  return checked.ok ? [] : checked.error.map(formatExpressionError);
}

describe('checkExpression', () => {
  it('accepts the language of the issue', () => {
    for (const source of [
      'crossover(sma(close, 10), sma(close, 20))',
      'rsi(close, 14) > 70 and time() >= "09:20"',
      'ema(high - low, 5) > atr(14) or supertrend(10, 3) < close',
      'close > vwap() and position == 0 and not (close[1] > open[1])',
      'bars_since_entry >= 5 or day_pnl < -2000 or close < entry_price * 0.98',
      'close > highest(high, 20)[1] and abs(close - open) > max(1, atr(14) / 2)',
    ]) {
      expect(errors(source), source).toEqual([]);
    }
  });

  it('suggests the name meant', () => {
    expect(errors('clsoe > 10')).toEqual(["1:1: unknown name 'clsoe'; did you mean 'close'?"]);
    expect(errors('smaa(close, 3) > 1')).toEqual(["1:1: unknown function 'smaa'; did you mean 'sma'?"]);
    expect(errors('Close > 1')).toEqual(["1:1: unknown name 'Close'; did you mean 'close'?"]);
    expect(errors('zebra > 1')).toEqual(["1:1: unknown name 'zebra'"]);
  });

  it('names the expected signature on wrong arity', () => {
    expect(errors('sma(close) > 1')).toEqual(['1:1: sma takes 2 arguments: sma(series, period); got 1']);
    expect(errors('atr(14, 2, 3) > 1')).toEqual(['1:1: atr takes 0 to 1 argument: atr(period = 14); got 3']);
    expect(errors('crossover(close)')).toEqual(['1:1: crossover takes 2 arguments: crossover(a, b); got 1']);
    expect(errors('max(close) > 1')).toEqual(['1:1: max takes at least 2 arguments: max(a, b, ...); got 1']);
  });

  it('rejects wrong types with the role of the operand', () => {
    expect(errors('close + (open > 1) > 2')).toEqual(["1:10: the right side of '+' must be a number, not a condition (true or false)"]);
    expect(errors('close and open')).toEqual([
      "1:1: the left side of 'and' must be a condition (true or false), not a number",
      "1:11: the right side of 'and' must be a condition (true or false), not a number",
    ]);
    expect(errors('time() > 920')).toEqual(['1:1: cannot compare a time of day with a number: compare time() with a text like "09:20"']);
    expect(errors('close + open')).toEqual(['1:1: the expression must be a condition (true or false), but it is a number']);
    expect(errors('sma(close > 1, 5) > 1')).toEqual(['1:5: the series of sma must be a number, not a condition (true or false)']);
  });

  it('validates time literals', () => {
    expect(errors('time() >= "9:20"')).toEqual(['1:11: "9:20" is not a time of day: write "HH:MM" between "00:00" and "23:59"']);
    expect(errors('time() < "24:00"')).toEqual(['1:10: "24:00" is not a time of day: write "HH:MM" between "00:00" and "23:59"']);
  });

  it('requires constant, in-range indicator parameters (constant arithmetic is folded)', () => {
    expect(errors('sma(close, 0) > 1')).toEqual(['1:12: the period of sma must be between 1 and 1000; got 0']);
    expect(errors('sma(close, 2.5) > 1')).toEqual(['1:12: the period of sma must be a whole number; got 2.5']);
    expect(errors('sma(close, open) > 1')).toEqual(['1:12: the period of sma must be a constant number written in the expression']);
    expect(errors('supertrend(10, -3) < close')).toEqual(['1:16: the multiplier of supertrend must be between 0.1 and 50; got -3']);
    expect(errors('sma(close, 2 * 5) > 1')).toEqual([]);
  });

  it('requires a lookback that is a non-negative whole constant', () => {
    expect(errors('close[-1] > 1')).toEqual(['1:7: a lookback must be between 0 and 100000; got -1']);
    expect(errors('close[1.5] > 1')).toEqual(['1:7: a lookback must be a whole number; got 1.5']);
    expect(errors('close[volume] > 1')).toEqual(['1:7: a lookback must be a constant number written in the expression']);
  });

  it('says when a function is used as a name and a name as a function', () => {
    expect(errors('sma > 1')).toEqual(["1:1: 'sma' is a function: write sma(series, period)"]);
    expect(errors('close(1) > 1')).toEqual(["1:1: 'close' is not a function: write close without parentheses"]);
  });

  it('reports every independent error, not just the first', () => {
    expect(errors('clsoe > 1 and rsi(close, 0) > 2')).toHaveLength(2);
  });

  it('fills default parameters, so rsi(close) and atr() mean their defaults', () => {
    const checked = checkExpression('atr() > 1');
    expect(checked.ok && checked.value.root.kind === 'comparison' && checked.value.root.left).toMatchObject({ kind: 'indicator', parameters: [14] });
  });
});

describe('checkExpression: a constant zero divisor and constants out of range', () => {
  it('refuses division and remainder by a constant zero at the divisor', () => {
    expect(errors('close / 0 > 1')).toEqual(["1:9: division by zero: the right side of '/' is always 0"]);
    expect(errors('close % (2 - 2) > 1')).toEqual(["1:10: remainder by zero: the right side of '%' is always 0"]);
    expect(errors('close >\n  open / -0')).toEqual(["2:10: division by zero: the right side of '/' is always 0"]);
    expect(errors('close / (close - close) > 1')).toEqual([]);
  });

  it('refuses a constant that folds to infinity, naming the operation', () => {
    expect(errors('close > 1e300 * 1e300')).toEqual(['1:9: this constant is out of range: 1e+300 * 1e+300 is too large for a number']);
    expect(errors('close > 1e308 / 1e-10')).toEqual(['1:9: this constant is out of range: 1e+308 / 1e-10 is too large for a number']);
    expect(errors('close > 1e308 + 1e308 - 1e308')).toEqual(['1:9: this constant is out of range: 1e+308 + 1e+308 is too large for a number']);
  });
});

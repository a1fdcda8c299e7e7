import { describe, expect, it } from 'vitest';
import { indicatorLines, lineLabel, ownPaneCount, parseIndicatorGroup } from './indicator-groups';

const closes = Array.from({ length: 60 }, (_, i) => 100 + Math.sin(i / 5) * 5 + i * 0.1);
const candles = {
  time: closes.map((_, i) => i * 60_000),
  open: closes.map((close) => close - 0.2),
  high: closes.map((close) => close + 1),
  low: closes.map((close) => close - 1),
  close: closes,
};

describe('indicator groups', () => {
  it('reads the saved shape with defaults for colours and outputs', () => {
    const parsed = parseIndicatorGroup([{ name: 'macd', parameters: [12, 26, 9], pane: 'own' }, { name: 'supertrend', parameters: [10, 3], pane: 'price', colors: ['#40c057'], outputs: [0] }]);
    expect(parsed).toEqual({
      ok: true,
      indicators: [
        { name: 'macd', parameters: [12, 26, 9], pane: 'own', colors: ['#228be6'], outputs: [0, 1, 2] },
        { name: 'supertrend', parameters: [10, 3], pane: 'price', colors: ['#40c057'], outputs: [0] },
      ],
    });
    if (parsed.ok) {
      expect(ownPaneCount(parsed.indicators)).toBe(1);
      expect(lineLabel(parsed.indicators[0]!, 1)).toBe('macd_signal(12, 26, 9)');
    }
  });

  it('names every problem', () => {
    expect(parseIndicatorGroup('x')).toEqual({ ok: false, errors: ['indicators must be a list'] });
    const parsed = parseIndicatorGroup([
      { name: 'nope', parameters: [], pane: 'price' },
      { name: 'ema', parameters: [9, 10], pane: 'price' },
      { name: 'ema', parameters: [9], pane: 'side' },
      { name: 'ema', parameters: [9], pane: 'price', colors: ['red'] },
      { name: 'ema', parameters: [9], pane: 'price', outputs: [1] },
    ]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors).toHaveLength(5);
      expect(parsed.errors[0]).toMatch(/^indicators\[0\]: unknown indicator "nope"/);
      expect(parsed.errors[1]).toBe('indicators[1]: Indicator "ema" takes 1 parameter(s) (period), got 2');
      expect(parsed.errors[2]).toBe('indicators[2]: pane must be "price" or "own"');
      expect(parsed.errors[3]).toBe('indicators[3]: colors must be a non-empty list of #rrggbb colours');
      expect(parsed.errors[4]).toBe('indicators[4]: outputs must be a non-empty list of output indexes below 1');
    }
  });

  it('computes lines with the streaming indicators, NaN while warming up, own panes numbered in order', () => {
    const parsed = parseIndicatorGroup([
      { name: 'sma', parameters: [5], pane: 'price', colors: ['#111111'] },
      { name: 'rsi', parameters: [14], pane: 'own' },
      { name: 'bb', parameters: [20, 2], pane: 'price', colors: ['#222222', '#333333'] },
      { name: 'atr', parameters: [14], pane: 'own' },
    ]);
    if (!parsed.ok) throw new Error(parsed.errors.join());
    const lines = indicatorLines(parsed.indicators, candles);
    expect(lines.map((line) => [line.label, line.pane, line.color])).toEqual([
      ['sma(5)', 0, '#111111'], ['rsi(14)', 1, '#228be6'],
      ['bb_middle(20, 2)', 0, '#222222'], ['bb_upper(20, 2)', 0, '#333333'], ['bb_lower(20, 2)', 0, '#333333'], ['atr(14)', 2, '#228be6'],
    ]);
    const sma = lines[0]!.values;
    expect(Number.isNaN(sma[3])).toBe(true);
    expect(sma[4]).toBeCloseTo((closes[0]! + closes[1]! + closes[2]! + closes[3]! + closes[4]!) / 5, 10);
    const middle = lines[2]!.values;
    const upper = lines[3]!.values;
    expect(upper[30]! > middle[30]!).toBe(true);
  });
});

import { algorithmFromExpressions } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { signalMarks } from './signal-marks';

// Closes that rise for 10 bars, fall for 10, rise again: close > sma(close, 3) flips twice.
const closes = [...Array.from({ length: 10 }, (_, i) => 100 + i), ...Array.from({ length: 10 }, (_, i) => 109 - i), ...Array.from({ length: 10 }, (_, i) => 100 + i)];
const candles = { time: closes.map((_, i) => 1_000 + i * 60_000), open: closes, high: closes.map((c) => c + 0.5), low: closes.map((c) => c - 0.5), close: closes };

describe('signal marks', () => {
  it('marks entries and exits where the held side changes', () => {
    const graph = algorithmFromExpressions({ entry: 'close > sma(close, 3)', exit: 'close < sma(close, 3)' });
    const result = signalMarks(graph, candles);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const indexes = result.signals.map((signal) => [(signal.time - 1_000) / 60_000, signal.kind]);
    // sma(3) is ready at bar 2; the first rising bar above it buys, the first falling bar below it exits.
    expect(indexes).toEqual([[2, 'buy'], [11, 'exit'], [21, 'buy']]);
  });

  it('marks sells of a short rule, from JSON text too', () => {
    const graph = JSON.stringify(algorithmFromExpressions({ entry: 'close < sma(close, 3)', exit: 'close > sma(close, 3)', direction: 'short' }));
    const result = signalMarks(graph, candles);
    expect(result.ok && result.signals.map((signal) => signal.kind)).toEqual(['sell', 'exit']);
  });

  it('answers the engine validation messages for a broken graph', () => {
    const result = signalMarks({ format: 'vyuha.algorithm', version: 1, nodes: [{ id: 'c', type: 'condition', expression: 'clsoe > 1', position: { x: 0, y: 0 } }], edges: [] }, candles);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('clsoe');
    expect(signalMarks('{"format": ', candles)).toMatchObject({ ok: false });
  });
});

// The signal preview's range and the graph key that decides when signals are recomputed.
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions } from '@vyuha/engine';
import { isoDate } from '@vyuha/core';
import { PREVIEW_DAYS, previewRange, signalKey } from './preview-model';

describe('previewRange', () => {
  it('ends on the latest candle\'s IST date', () => {
    // 23:59 IST on 30 October is still the 30th in IST.
    expect(previewRange('2026-10-30T18:29:00+00:00', isoDate('2026-11-24'))).toEqual({ from: '2026-10-21', to: '2026-10-30' });
    expect(PREVIEW_DAYS).toBe(10);
  });

  it('ends today without any candle', () => {
    expect(previewRange(undefined, isoDate('2026-11-24'))).toEqual({ from: '2026-11-15', to: '2026-11-24' });
  });
});

describe('signalKey', () => {
  it('ignores where nodes are drawn, not what they say', () => {
    const document = algorithmFromExpressions({ entry: 'close > open' });
    const moved = { ...document, nodes: document.nodes.map((node) => ({ ...node, position: { x: 5, y: 9 }, width: 100 })) };
    expect(signalKey(moved)).toBe(signalKey(document));
    expect(signalKey(algorithmFromExpressions({ entry: 'close < open' }))).not.toBe(signalKey(document));
  });
});

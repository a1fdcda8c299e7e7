import { describe, expect, it } from 'vitest';
import { killHits } from './kill-hits';

describe('killHits', () => {
  it('kills at every hit of a point reached at most `limit` times, once each', () => {
    expect(killHits(6, 20, 'p')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(killHits(20, 20, 'p')).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(killHits(0, 20, 'p')).toEqual([]);
  });

  it('draws `limit` distinct hits in range from a point reached more often, the same for the same seed', () => {
    const drawn = killHits(100, 20, 'chaos-mid-fill');
    expect(new Set(drawn).size).toBe(20);
    expect(drawn.every((hit) => Number.isInteger(hit) && hit >= 1 && hit <= 100)).toBe(true);
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
    expect(killHits(100, 20, 'chaos-mid-fill')).toEqual(drawn);
    expect(killHits(100, 20, 'chaos-before-write')).not.toEqual(drawn);
  });
});

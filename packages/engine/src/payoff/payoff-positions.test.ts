import { describe, expect, it } from 'vitest';
import { availableIndices, groupPositions, replacePositionsForIndex, type PayoffPosition } from './payoff-positions';

function position(indice: string, expiry: string, saved: { strike: number; timestamp: number }): PayoffPosition {
  return { indice, expiry, ...saved, kind: 'option', optionType: 'CE', quantity: 65, entryPrice: 100 };
}

const positions = [
  position('NIFTY BANK', '2026-01-27', { strike: 58_000, timestamp: 3 }),
  position('NIFTY 50', '2026-02-24', { strike: 25_500, timestamp: 5 }),
  position('NIFTY 50', '2026-01-27', { strike: 25_000, timestamp: 1 }),
  position('NIFTY 50', '2026-01-27', { strike: 25_200, timestamp: 4 }),
];

describe('payoff positions (docs/PRODUCT.md section 3)', () => {
  it('group by index and expiry, keep their order inside a group, and carry the newest timestamp', () => {
    const groups = groupPositions(positions);
    expect(groups.map((group) => [group.indice, group.expiry, group.positions.map((p) => p.strike), group.updatedAt])).toEqual([
      ['NIFTY 50', '2026-01-27', [25_000, 25_200], 4],
      ['NIFTY 50', '2026-02-24', [25_500], 5],
      ['NIFTY BANK', '2026-01-27', [58_000], 3],
    ]);
  });

  it('list the distinct indices', () => {
    expect(availableIndices(positions)).toEqual(['NIFTY 50', 'NIFTY BANK']);
    expect(availableIndices([])).toEqual([]);
  });

  it('replace every position of one index and leave the others alone', () => {
    const replaced = replacePositionsForIndex(positions, 'NIFTY 50', [position('NIFTY 50', '2026-03-31', { strike: 26_000, timestamp: 9 })]);
    expect(replaced.map((p) => [p.indice, p.strike])).toEqual([['NIFTY BANK', 58_000], ['NIFTY 50', 26_000]]);
    expect(positions).toHaveLength(4); // the input is not mutated
    expect(replacePositionsForIndex(positions, 'NIFTY BANK', []).map((p) => p.indice)).toEqual(['NIFTY 50', 'NIFTY 50', 'NIFTY 50']);
  });

  it('refuses a replacement that belongs to another index, naming it', () => {
    expect(() => replacePositionsForIndex(positions, 'NIFTY 50', [position('SENSEX', '2026-01-29', { strike: 82_000, timestamp: 9 })]))
      .toThrow(/^replacement\[0\]\.indice must be "NIFTY 50", got "SENSEX"/);
  });
});

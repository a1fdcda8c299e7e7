import { describe, expect, it } from 'vitest';
import { recordSignal } from './record-signal';

const strategy = { strategy_id: 's1', status: 'ACTIVE', updated_at: '2026-12-01T05:00:00Z' };
const orders = (count: number, filled: number | null) => ({ orders_aggregate: { aggregate: { count, sum: { filled_quantity: filled } } } });

describe('recordSignal', () => {
  it('waits for both the published strategies and the viewer\'s orders', () => {
    expect(recordSignal(undefined, orders(0, null))).toBeUndefined();
    expect(recordSignal([strategy], undefined)).toBeUndefined();
  });

  it('changes with a fill, a new order, or a published strategy\'s status, and not with the list\'s order', () => {
    const before = recordSignal([strategy, { ...strategy, strategy_id: 's2' }], orders(2, 150));
    expect(recordSignal([{ ...strategy, strategy_id: 's2' }, strategy], orders(2, 150))).toBe(before);
    expect(recordSignal([strategy, { ...strategy, strategy_id: 's2' }], orders(2, 225))).not.toBe(before);
    expect(recordSignal([strategy, { ...strategy, strategy_id: 's2' }], orders(3, 150))).not.toBe(before);
    expect(recordSignal([{ ...strategy, status: 'STOPPED' }, { ...strategy, strategy_id: 's2' }], orders(2, 150))).not.toBe(before);
    expect(recordSignal([strategy], orders(0, null))).toBe('s1 ACTIVE 2026-12-01T05:00:00Z|0 0');
  });
});

import { describe, expect, it } from 'vitest';
import { BlockColumns } from './block-columns';
import { BLOCK_BARS } from './block-steps';

describe('BlockColumns', () => {
  it('hands the same columns to the next program, zeroed, and adds columns when it asks for more', () => {
    const pool = new BlockColumns();
    const first = pool.take(2);
    expect(first.map((column) => column.length)).toEqual([BLOCK_BARS, BLOCK_BARS]);
    first[0]?.fill(3.5);
    first[1]?.fill(Number.NaN);
    const second = pool.take(3);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second.every((column) => column.length === BLOCK_BARS && column.every((value) => Object.is(value, 0)))).toBe(true);
  });

  it('keeps one buffer of fired bytes', () => {
    const pool = new BlockColumns();
    expect(pool.fired()).toBe(pool.fired());
    expect(pool.fired().length).toBe(BLOCK_BARS);
  });
});

import { describe, expect, it } from 'vitest';
import { StatementBatch } from '../src/db/statement-batch';

describe('StatementBatch', () => {
  it('runs the calls of one turn as one statement, each caller getting its own output', async () => {
    const statements: number[][] = [];
    const batch = new StatementBatch<number, string>({
      run: async (inputs) => {
        statements.push([...inputs]);
        return inputs.map((input) => `row ${input}`);
      },
    });
    const answers = await Promise.all([1, 2, 3].map((input) => batch.call(input)));
    expect(answers).toEqual(['row 1', 'row 2', 'row 3']);
    expect(statements).toEqual([[1, 2, 3]]);
    // A call in a later turn is a statement of its own.
    expect(await batch.call(4)).toBe('row 4');
    expect(statements).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a turn larger than maxSize into several statements', async () => {
    const statements: number[][] = [];
    const batch = new StatementBatch<number, number>({ maxSize: 2, run: async (inputs) => (statements.push([...inputs]), inputs.map((input) => input * 10)) });
    expect(await Promise.all([1, 2, 3, 4, 5].map((input) => batch.call(input)))).toEqual([10, 20, 30, 40, 50]);
    expect(statements).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails only the call whose input fails the statement: the others are run again alone', async () => {
    const statements: number[][] = [];
    const batch = new StatementBatch<number, number>({
      run: async (inputs) => {
        statements.push([...inputs]);
        if (inputs.includes(2)) throw new Error('input 2 breaks a constraint');
        return inputs.map((input) => -input);
      },
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((input) => batch.call(input)));
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message)))
      .toEqual([-1, 'input 2 breaks a constraint', -3]);
    expect(statements).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('refuses an answer with the wrong number of outputs', async () => {
    const batch = new StatementBatch<number, number>({ run: async () => [] });
    await expect(batch.call(1)).rejects.toThrow('answered 0 outputs for 1 inputs');
  });

  it('refuses a maxSize that is not a whole number above 0', () => {
    expect(() => new StatementBatch<number, number>({ maxSize: 0, run: async (inputs) => inputs })).toThrow('maxSize');
  });
});

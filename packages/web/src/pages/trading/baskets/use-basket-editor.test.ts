import { describe, expect, it } from 'vitest';
import type { CombinedError } from 'urql';
import { serverIssues } from './use-basket-editor';

function refusal(issues: Array<{ field: string; message: string }>): CombinedError {
  return { graphQLErrors: [{ extensions: { issues } }] } as unknown as CombinedError;
}

describe('the server\'s refusals on the editor\'s fields', () => {
  it('moves lots, quantity, price and trigger onto the row\'s fields and keeps the rest', () => {
    expect(serverIssues(refusal([
      { field: 'legs[1].lots', message: 'a' }, { field: 'legs[0].quantity', message: 'b' }, { field: 'legs[2].price_paise', message: 'c' },
      { field: 'legs[2].trigger_price_paise', message: 'd' }, { field: 'legs[3].symbol', message: 'e' }, { field: 'name', message: 'f' },
    ])).map((issue) => issue.field)).toEqual(['legs[1].size', 'legs[0].size', 'legs[2].price', 'legs[2].trigger', 'legs[3].symbol', 'name']);
    expect(serverIssues(undefined)).toEqual([]);
  });
});

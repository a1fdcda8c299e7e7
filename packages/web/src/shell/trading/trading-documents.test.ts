import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as documents from './trading-documents';

describe('the header trading documents', () => {
  it('parse as GraphQL', () => {
    for (const [name, value] of Object.entries(documents)) {
      if (typeof value === 'string') expect(() => parse(value), name).not.toThrow();
    }
  });

  it('batch one aliased update_pending_signals_by_pk per signal', () => {
    const text = documents.dismissSignalsDocument(3);
    expect(() => parse(text)).not.toThrow();
    expect(text.match(/update_pending_signals_by_pk/g)).toHaveLength(3);
    expect(text).toContain('$id2: uuid!');
    expect(text).toContain('p2: update_pending_signals_by_pk(pk_columns: { pending_signal_id: $id2 }');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BROKER_TAG_LENGTH, brokerTagFor, CLIENT_ORDER_ID_PATTERN, clientOrderIdFor, MAX_TAGGED_SEQUENCE, parseClientOrderId } from './client-order-id';

const RUN = '6f1c2b8e-3d4a-4b5c-8d9e-0a1b2c3d4e5f';

describe('client order ids', () => {
  it('joins the run id and the sequence into an id the orders table accepts', () => {
    const id = clientOrderIdFor({ runId: RUN.toUpperCase(), sequence: 42 });
    expect(id).toEqual({ ok: true, value: `${RUN}-42` });
    expect(CLIENT_ORDER_ID_PATTERN.test(`${RUN}-42`)).toBe(true);
  });

  it('reads the run id and sequence back from any id it made, so no two inputs share an id', () => {
    fc.assert(fc.property(fc.uuid(), fc.nat({ max: Number.MAX_SAFE_INTEGER }), (runId, sequence) => {
      const id = clientOrderIdFor({ runId, sequence });
      expect(id.ok).toBe(true);
      if (!id.ok) return;
      expect(id.value.length).toBeLessThanOrEqual(64);
      expect(CLIENT_ORDER_ID_PATTERN.test(id.value)).toBe(true);
      expect(parseClientOrderId(id.value)).toEqual({ ok: true, value: { runId: runId.toLowerCase(), sequence } });
    }));
  });

  it('refuses a run id that is not a UUID and a sequence that is not a whole number, naming the field', () => {
    const badRun = clientOrderIdFor({ runId: 'run-1', sequence: 1 });
    expect(badRun.ok ? '' : badRun.error).toContain('runId');
    const badSequence = clientOrderIdFor({ runId: RUN, sequence: 1.5 });
    expect(badSequence.ok ? '' : badSequence.error).toContain('sequence');
    expect(parseClientOrderId(`${RUN}-01`).ok).toBe(false);
  });
});

describe('broker tags', () => {
  it('packs a run and a sequence into 20 letters and digits', () => {
    expect(brokerTagFor({ runId: '00000000-0000-0000-0000-000000000001', sequence: 35 })).toEqual({ ok: true, value: 'v000000000000000000z' });
    fc.assert(fc.property(fc.uuid(), fc.nat({ max: MAX_TAGGED_SEQUENCE }), (runId, sequence) => {
      const tag = brokerTagFor({ runId, sequence });
      expect(tag.ok && tag.value.length === BROKER_TAG_LENGTH && /^[a-z0-9]+$/.test(tag.value)).toBe(true);
    }));
  });

  it('gives every order of a run its own tag', () => {
    const tags = new Set(Array.from({ length: 2_000 }, (_, sequence) => {
      const tag = brokerTagFor({ runId: RUN, sequence });
      return tag.ok ? tag.value : '';
    }));
    expect(tags.size).toBe(2_000);
  });

  it('refuses a sequence that no longer fits the tag', () => {
    const tag = brokerTagFor({ runId: RUN, sequence: MAX_TAGGED_SEQUENCE + 1 });
    expect(tag.ok ? '' : tag.error).toContain('sequence must be at most');
  });
});

import type { IsoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { expiryNote, lotSizeOf, ruleExpiries } from './payoff-expiries';

describe('payoff expiries', () => {
  it('regression: never says "No expiries are listed" while it offers an expiry', () => {
    const note = expiryNote({ indexName: 'NIFTY 50', fromRules: true, offered: 3 });
    expect(note?.tone).toBe('info');
    expect(note?.text).not.toMatch(/no expiries/i);
    expect(expiryNote({ indexName: 'NIFTY 50', fromRules: true, offered: 0 })).toEqual({
      tone: 'warning', text: 'No expiries are known for NIFTY 50: none are listed and the expiry rules give none ahead.',
    });
  });

  it('says nothing while expiries load or when they are listed', () => {
    expect(expiryNote({ indexName: 'NIFTY 50', fromRules: false, offered: 0 })).toBeUndefined();
    expect(expiryNote({ indexName: 'NIFTY 50', fromRules: false, offered: 2 })).toBeUndefined();
  });

  it('offers the rule-based expiries ahead of today with their lot size', () => {
    const today = '2026-11-25' as IsoDate;
    const expiries = ruleExpiries('NIFTY', today);
    expect(expiries.length).toBeGreaterThan(0);
    expect(expiries.every((expiry) => expiry.date >= today)).toBe(true);
    expect(lotSizeOf('NIFTY', today, expiries[0]?.date ?? null)).toBeGreaterThan(0);
    expect(ruleExpiries('NOT AN INDEX', today)).toEqual([]);
    expect(lotSizeOf('NIFTY', today, null)).toBeUndefined();
  });
});

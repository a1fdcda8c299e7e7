import { describe, expect, it } from 'vitest';
import { rupeesFieldToPaise } from './money-input';

describe('rupeesFieldToPaise', () => {
  it('regression: ₹1.005 typed into an investment field is 101 paise (the web\'s own copy gave 100)', () => {
    expect(rupeesFieldToPaise(1.005)).toEqual({ ok: true, value: 101 });
    expect(rupeesFieldToPaise('1.005')).toEqual({ ok: true, value: 101 });
  });

  it('reads grouping commas and treats an empty field as no amount', () => {
    expect(rupeesFieldToPaise(1500.5)).toEqual({ ok: true, value: 150_050 });
    expect(rupeesFieldToPaise('2,50,000.50')).toEqual({ ok: true, value: 25_000_050 });
    expect(rupeesFieldToPaise(0.29)).toEqual({ ok: true, value: 29 });
    expect(rupeesFieldToPaise('')).toEqual({ ok: true, value: 0 });
  });

  it('refuses text, negatives, overflow and infinities with a message', () => {
    for (const value of ['abc', -1, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY]) {
      expect(rupeesFieldToPaise(value)).toMatchObject({ ok: false, error: expect.any(String) });
    }
  });
});

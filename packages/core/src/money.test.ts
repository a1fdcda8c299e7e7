import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidMoneyError, paise, paiseToRupees, parseRupees, rupeesToPaise } from './money';
import { paiseToRupeesText } from './money-format';

// Every paisa up to ₹10^13 has a double of its own (their spacing there is under 0.002 rupees);
// beyond that, two amounts a paisa apart can share one double, and only text keeps them apart.
const NUMBER_EXACT_PAISE = 10 ** 15;

describe('paise', () => {
  it('accepts whole paise', () => {
    expect(paise(2050)).toBe(2050);
    expect(paise(-1)).toBe(-1);
    expect(Object.is(paise(-0), 0)).toBe(true);
  });

  it.each([Number.NaN, 1.5, Number.POSITIVE_INFINITY, 2 ** 53])('refuses %s', (value) => {
    expect(() => paise(value)).toThrow(InvalidMoneyError);
  });
});

describe('rupeesToPaise', () => {
  it('rounds at the paisa without float drift', () => {
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(rupeesToPaise(20.5)).toBe(2050);
    expect(rupeesToPaise(-1.005)).toBe(-101);
    expect(rupeesToPaise(1.015)).toBe(102);
    expect(rupeesToPaise(0.125)).toBe(13);
    expect(rupeesToPaise(-0.125)).toBe(-13);
    expect(rupeesToPaise(0.004)).toBe(0);
    expect(Object.is(rupeesToPaise(-0.004), 0)).toBe(true);
  });

  it('reads decimal text exactly, exponents included', () => {
    expect(rupeesToPaise('1.005')).toBe(101);
    expect(rupeesToPaise('-1.005')).toBe(-101);
    expect(rupeesToPaise('1.00499999999999999999')).toBe(100);
    expect(rupeesToPaise(' 1500.5 ')).toBe(150_050);
    expect(rupeesToPaise('.5')).toBe(50);
    expect(rupeesToPaise('7.')).toBe(700);
    expect(rupeesToPaise('1e3')).toBe(100_000);
    expect(rupeesToPaise('1.2345e-2')).toBe(1);
    expect(rupeesToPaise('5e-3')).toBe(1);
    expect(rupeesToPaise('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads a number as the decimal that names it, however large or small', () => {
    expect(rupeesToPaise(1e-7)).toBe(0);
    expect(rupeesToPaise(5e-3)).toBe(1);
    expect(rupeesToPaise(12_345_678_901_234.56)).toBe(1_234_567_890_123_456);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 1e14, 'abc', '', '1.2.3', '1,000', '90071992547409.92', '1e400'])(
    'refuses %s with InvalidMoneyError', (value) => {
      expect(() => rupeesToPaise(value)).toThrow(InvalidMoneyError);
    });

  it('round-trips every amount through rupees as a number up to ₹10^13', () => {
    fc.assert(fc.property(fc.integer({ min: -NUMBER_EXACT_PAISE, max: NUMBER_EXACT_PAISE }), (amount) => {
      expect(rupeesToPaise(paiseToRupees(amount))).toBe(amount);
    }), { numRuns: 20_000 });
  });

  it('round-trips every safe whole number of paise through rupees as text', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (amount) => {
      expect(rupeesToPaise(paiseToRupeesText(amount))).toBe(amount);
    }), { numRuns: 20_000 });
  });

  it('rounds a decimal with more places half away from zero at the paisa, as its text says', () => {
    const decimals = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 10 ** 9 }), fc.stringMatching(/^\d{1,8}$/));
    fc.assert(fc.property(decimals, ([negative, whole, fraction]) => {
      const text = `${negative ? '-' : ''}${whole}.${fraction}`;
      const cents = Number(fraction.padEnd(3, '0').slice(0, 2));
      const up = Number(fraction.padEnd(3, '0')[2]) >= 5 ? 1 : 0;
      const expected = (whole * 100 + cents + up) * (negative ? -1 : 1);
      expect(rupeesToPaise(text)).toBe(expected === 0 ? 0 : expected);
      // A number with at most 15 significant digits is read as that same decimal.
      if (`${whole}${fraction}`.replace(/^0+/, '').length <= 15) expect(rupeesToPaise(Number(text))).toBe(expected === 0 ? 0 : expected);
    }), { numRuns: 20_000 });
  });
});

describe('parseRupees', () => {
  it('reads what a person types: grouping commas, the rupee sign, spaces', () => {
    expect(parseRupees('2,50,000.50')).toEqual({ ok: true, value: 25_000_050 });
    expect(parseRupees('₹1,500.5')).toEqual({ ok: true, value: 150_050 });
    expect(parseRupees(' 40 ')).toEqual({ ok: true, value: 4_000 });
    expect(parseRupees(0.29)).toEqual({ ok: true, value: 29 });
    expect(parseRupees('-₹12.5', { allowNegative: true })).toEqual({ ok: true, value: -1_250 });
  });

  it('names what is wrong instead of throwing', () => {
    expect(parseRupees('12abc')).toEqual({ ok: false, error: 'must be an amount in rupees such as 1500.50, got "12abc"' });
    expect(parseRupees('')).toMatchObject({ ok: false });
    expect(parseRupees('-1')).toEqual({ ok: false, error: 'must not be negative, got -1' });
    expect(parseRupees(-1)).toEqual({ ok: false, error: 'must not be negative, got -1' });
    expect(parseRupees(Number.NaN)).toEqual({ ok: false, error: 'must be an amount in rupees, got NaN' });
    expect(parseRupees(Number.MAX_SAFE_INTEGER)).toMatchObject({ ok: false, error: expect.stringContaining('must be at most') });
    expect(parseRupees('99999999999999999')).toMatchObject({ ok: false, error: expect.stringContaining('must be at most') });
  });

  it('regression: ₹1.005 typed into a form is 101 paise (the web app had its own copy that gave 100)', () => {
    expect(parseRupees('1.005')).toEqual({ ok: true, value: 101 });
    expect(parseRupees(1.005)).toEqual({ ok: true, value: 101 });
    // What that copy did: Math.round(1.005 * 100).
    expect(Math.round(1.005 * 100)).toBe(100);
  });
});

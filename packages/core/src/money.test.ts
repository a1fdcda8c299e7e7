import { describe, expect, it } from 'vitest';
import { InvalidMoneyError, paise, rupeesToPaise } from './money';

describe('paise', () => {
  it('accepts whole paise', () => {
    expect(paise(2050)).toBe(2050);
    expect(paise(-1)).toBe(-1);
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
  });

  it('refuses non-finite rupees', () => {
    expect(() => rupeesToPaise(Number.NaN)).toThrow(InvalidMoneyError);
  });
});

import { describe, expect, test } from 'vitest';
import { bandColor, LEVELS, orderLevelLabels, ordersBand, pnlBand, pnlLevelLabels } from './heatmap-bands';

describe('pnlBand (spec section 9: 500 ... 132000 rupees)', () => {
  test('zero has no band', () => expect(pnlBand(0)).toEqual({ tone: 'none', level: 0 }));
  test('under ₹500 is the first level', () => expect(pnlBand(49_999)).toEqual({ tone: 'profit', level: 0 }));
  test('exactly ₹500 starts the second level', () => expect(pnlBand(50_000)).toEqual({ tone: 'profit', level: 1 }));
  test('a loss uses the same thresholds', () => expect(pnlBand(-150_000)).toEqual({ tone: 'loss', level: 2 }));
  test('₹1,32,000 and above is the darkest', () => {
    expect(pnlBand(13_200_000)).toEqual({ tone: 'profit', level: LEVELS - 1 });
    expect(pnlBand(-99_000_000)).toEqual({ tone: 'loss', level: LEVELS - 1 });
    expect(pnlBand(13_199_999).level).toBe(LEVELS - 2);
  });
});

describe('ordersBand (bands of 2 up to above 18)', () => {
  test.each([[0, 'none', 0], [1, 'orders', 0], [2, 'orders', 0], [3, 'orders', 1], [18, 'orders', 8], [19, 'orders', 9], [500, 'orders', 9]])(
    '%i orders', (orders, tone, level) => expect(ordersBand(orders)).toEqual({ tone, level }),
  );
});

test('colours darken with the level and stay distinct', () => {
  const colours = Array.from({ length: LEVELS }, (_, level) => bandColor({ tone: 'profit', level }));
  expect(new Set(colours).size).toBe(LEVELS);
  expect(colours[0]).toBe('#b7e4c7');
  expect(colours[LEVELS - 1]).toBe('#0b4f24');
  expect(bandColor({ tone: 'none', level: 0 })).toBeUndefined();
});

test('legend labels cover every level', () => {
  expect(pnlLevelLabels()).toEqual(['< 500', '500–1,000', '1,000–2,000', '2,000–4,000', '4,000–8,000', '8,000–16,000', '16,000–32,000', '32,000–64,000', '64,000–1,32,000', '≥ 1,32,000']);
  expect(orderLevelLabels()).toEqual(['1–2', '3–4', '5–6', '7–8', '9–10', '11–12', '13–14', '15–16', '17–18', '> 18']);
});

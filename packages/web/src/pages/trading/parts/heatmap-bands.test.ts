import { describe, expect, test } from 'vitest';
import { bandColor, LEVELS, levelLabels, orderLevelLabels, ordersBand, pnlBand, pnlLevelLabels, returnsBand } from './heatmap-bands';

describe('pnlBand (docs/PRODUCT.md section 9: 500 ... 132000 rupees, bands (lower, upper] as the engine reads them)', () => {
  test('zero has no band', () => expect(pnlBand(0)).toEqual({ tone: 'none', level: 0, levels: LEVELS }));
  test('up to ₹500 is the first level', () => {
    expect(pnlBand(49_999)).toMatchObject({ tone: 'profit', level: 0 });
    expect(pnlBand(50_000)).toMatchObject({ tone: 'profit', level: 0 });
  });
  test('just above ₹500 is the second level', () => expect(pnlBand(50_001)).toMatchObject({ tone: 'profit', level: 1 }));
  test('a loss uses the same edges', () => expect(pnlBand(-150_000)).toMatchObject({ tone: 'loss', level: 2 }));
  test('above ₹1,32,000 is the darkest', () => {
    expect(pnlBand(13_200_001)).toMatchObject({ tone: 'profit', level: LEVELS - 1 });
    expect(pnlBand(-99_000_000)).toMatchObject({ tone: 'loss', level: LEVELS - 1 });
    expect(pnlBand(13_200_000).level).toBe(LEVELS - 2);
  });
  test('the alternate scale steps by ₹2,000 up to ₹18,000', () => {
    expect(pnlBand(250_000, 'alternate')).toMatchObject({ tone: 'profit', level: 1, levels: 10 });
    expect(pnlBand(-1_800_001, 'alternate')).toMatchObject({ tone: 'loss', level: 9 });
  });
});

describe('ordersBand (bands of 2 up to above 18; alternate by 1)', () => {
  test.each([[0, 'none', 0], [1, 'orders', 0], [2, 'orders', 0], [3, 'orders', 1], [18, 'orders', 8], [19, 'orders', 9], [500, 'orders', 9]])(
    '%i orders', (orders, tone, level) => expect(ordersBand(orders)).toMatchObject({ tone, level }),
  );
  test('by one', () => {
    expect(ordersBand(3, 'alternate')).toEqual({ tone: 'orders', level: 2, levels: 19 });
    expect(ordersBand(19, 'alternate').level).toBe(18);
  });
});

test('returns in tenths of a percent up to 1, then beyond', () => {
  expect(returnsBand(30_000, 10_000_000)).toEqual({ tone: 'profit', level: 2, levels: 11 });
  expect(returnsBand(-200_000, 10_000_000)).toMatchObject({ tone: 'loss', level: 10 });
});

test('colours darken with the level and stay distinct', () => {
  const colours = Array.from({ length: LEVELS }, (_, level) => bandColor({ tone: 'profit', level }));
  expect(new Set(colours).size).toBe(LEVELS);
  expect(colours[0]).toBe('#b7e4c7');
  expect(colours[LEVELS - 1]).toBe('#0b4f24');
  expect(bandColor({ tone: 'orders', level: 18, levels: 19 })).toBe('#123a7a');
  expect(bandColor({ tone: 'none', level: 0 })).toBeUndefined();
});

test('legend labels cover every level', () => {
  expect(pnlLevelLabels()).toEqual(['≤ 500', '500–1,000', '1,000–2,000', '2,000–4,000', '4,000–8,000', '8,000–16,000', '16,000–32,000', '32,000–64,000', '64,000–1,32,000', '> 1,32,000']);
  expect(orderLevelLabels()).toEqual(['1–2', '3–4', '5–6', '7–8', '9–10', '11–12', '13–14', '15–16', '17–18', '> 18']);
  expect(levelLabels('orders', 'alternate').slice(0, 2)).toEqual(['1', '2']);
  expect(levelLabels('pnl', 'alternate').at(-1)).toBe('> 18,000');
  expect(levelLabels('returns')[0]).toBe('≤ 0.1%');
  expect(levelLabels('returns').at(-1)).toBe('> 1%');
});

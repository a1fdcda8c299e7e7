import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFillToPosition, averagePricePaise, dayPnl, FLAT_POSITION, positionFromFills, positionPnl, positionRowOf, unrealisedPnlPaise } from './positions';
import type { PositionFill } from './positions';

const buy = (quantity: number, pricePaise: number): PositionFill => ({ side: 'BUY', quantity, pricePaise });
const sell = (quantity: number, pricePaise: number): PositionFill => ({ side: 'SELL', quantity, pricePaise });

/** The fills' cash flow: what was sold for minus what was bought for. */
function cashFlow(fills: readonly PositionFill[]): number {
  return fills.reduce((sum, fill) => sum + (fill.side === 'SELL' ? 1 : -1) * fill.quantity * fill.pricePaise, 0);
}

const fillArbitrary = fc.record({
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  quantity: fc.integer({ min: 1, max: 500 }),
  pricePaise: fc.integer({ min: 5, max: 5_000_000 }),
});

describe('a position as fills move it', () => {
  it('averages the cost of additions and realises against it on a reduction', () => {
    // Buy 10 at 100.00 and 20 at 101.00: cost 3,020.00, average 100.6666... -> 10,067 paise.
    const long = positionFromFills([buy(10, 10_000), buy(20, 10_100)]);
    expect(long).toMatchObject({ netQuantity: 30, openCostPaise: 302_000 });
    expect(averagePricePaise(long)).toBe(10_067);
    // Sell 10 at 102.00: the 10 units carry round-half-up(302,000 x 10 / 30) = 100,667 of the cost;
    // realised = 102,000 - 100,667 = 1,333 paise.
    const reduced = applyFillToPosition(long, sell(10, 10_200));
    expect(reduced).toMatchObject({ netQuantity: 20, openCostPaise: 201_333, realisedPnlPaise: 1_333 });
  });

  it('closes the whole position on a flip through zero and opens the rest at the fill price', () => {
    // Long 10 at 100.00; sell 15 at 110.00: realise 10 x 10.00 = 100.00, then short 5 at 110.00.
    const flipped = positionFromFills([buy(10, 10_000), sell(15, 11_000)]);
    expect(flipped).toMatchObject({ netQuantity: -5, openCostPaise: 55_000, realisedPnlPaise: 10_000 });
    expect(averagePricePaise(flipped)).toBe(11_000);
    // Buy 5 back at 105.00: a short gains 5 x 5.00 = 25.00.
    const flat = applyFillToPosition(flipped, buy(5, 10_500));
    expect(flat).toMatchObject({ netQuantity: 0, openCostPaise: 0, realisedPnlPaise: 12_500 });
    // A flat row has no average price (the positions table's check).
    expect(positionRowOf(flat)).toEqual({ netQuantity: 0, averagePricePaise: 0, realisedPnlPaise: 12_500 });
  });

  it('marks a short to market the other way round', () => {
    const short = positionFromFills([sell(4, 20_000)]);
    expect(unrealisedPnlPaise(short, 19_000)).toBe(4_000);
    expect(unrealisedPnlPaise(short, 21_000)).toBe(-4_000);
  });

  it('keeps charges apart from the gross P&L and the average price', () => {
    const position = positionFromFills([{ ...buy(10, 10_000), chargesPaise: 2_360 }, { ...sell(10, 10_100), chargesPaise: 2_418 }]);
    expect(positionPnl(position, 10_100)).toEqual({ realisedPaise: 1_000, markToMarketPaise: 0, chargesPaise: 4_778, netPaise: -3_778 });
  });

  it('refuses a fill that is not whole units at whole paise, naming the field', () => {
    expect(() => applyFillToPosition(FLAT_POSITION, buy(1.5, 100))).toThrow(/quantity/);
    expect(() => applyFillToPosition(FLAT_POSITION, buy(1, 0))).toThrow(/pricePaise/);
  });

  it('gives the same position for the partial fills of an order that adds to it, in any order', () => {
    fc.assert(fc.property(
      fc.array(fillArbitrary, { maxLength: 8 }),
      fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 400 }), pricePaise: fc.integer({ min: 5, max: 100_000 }) }), { minLength: 1, maxLength: 8 }),
      (before, parts) => {
        const start = positionFromFills(before);
        // The order's side is the position's own (or any side when flat): every fill adds.
        const side = start.netQuantity < 0 ? 'SELL' as const : 'BUY' as const;
        const fills = parts.map((part) => ({ side, ...part }));
        const forwards = positionFromFills(fills, start);
        expect(positionFromFills([...fills].reverse(), start)).toEqual(forwards);
        expect(positionFromFills([...fills].sort((a, b) => a.pricePaise - b.pricePaise), start)).toEqual(forwards);
      },
    ));
  });

  it('for the partial fills of an order that reduces or flips it, in any order: the same net and total P&L; '
    + 'while it only reduces, realised within a paisa per fill', () => {
    fc.assert(fc.property(
      fc.array(fillArbitrary, { minLength: 1, maxLength: 8 }),
      fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 400 }), pricePaise: fc.integer({ min: 5, max: 100_000 }) }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 100_000 }),
      (before, parts, mark) => {
        const start = positionFromFills(before);
        const side = start.netQuantity > 0 ? 'SELL' as const : 'BUY' as const;
        const fills = parts.map((part) => ({ side, ...part }));
        const forwards = positionFromFills(fills, start);
        const backwards = positionFromFills([...fills].reverse(), start);
        expect(backwards.netQuantity).toBe(forwards.netQuantity);
        expect(backwards.realisedPnlPaise + unrealisedPnlPaise(backwards, mark)).toBe(forwards.realisedPnlPaise + unrealisedPnlPaise(forwards, mark));
        const total = fills.reduce((sum, fill) => sum + fill.quantity, 0);
        // Which of the order's units closed the old position decides the split once it flips
        // (average cost); short of a flip only the rounding of each reduction can differ.
        if (start.netQuantity !== 0 && total <= Math.abs(start.netQuantity)) {
          expect(Math.abs(backwards.realisedPnlPaise - forwards.realisedPnlPaise)).toBeLessThanOrEqual(fills.length);
        }
      },
    ));
  });

  it('in any order of any fills: net = the signed sum, and realised + unrealised = cash flow + net x mark, exactly', () => {
    fc.assert(fc.property(fc.array(fillArbitrary, { maxLength: 30 }), fc.integer({ min: 1, max: 5_000_000 }), (fills, mark) => {
      const position = positionFromFills(fills);
      const net = fills.reduce((sum, fill) => sum + (fill.side === 'BUY' ? fill.quantity : -fill.quantity), 0);
      expect(position.netQuantity).toBe(net);
      expect(position.openCostPaise).toBeGreaterThanOrEqual(0);
      if (net === 0) expect(position.openCostPaise).toBe(0);
      expect(position.realisedPnlPaise + unrealisedPnlPaise(position, mark)).toBe(cashFlow(fills) + net * mark);
      // The stored average is the exact one rounded: within half a paisa per unit.
      if (net !== 0) expect(Math.abs(averagePricePaise(position) * Math.abs(net) - position.openCostPaise)).toBeLessThanOrEqual(Math.abs(net) / 2);
    }));
  });
});

describe('daily P&L', () => {
  it('counts only today\'s move of a position carried overnight, plus what was realised today', () => {
    // Yesterday: long 10 bought at 100.00, closed at 104.00 (4,000 paise marked yesterday).
    const opening = { position: positionFromFills([buy(10, 10_000)]), markPricePaise: 10_400 };
    // Today: sell 4 at 106.00 and mark the remaining 6 at 103.00.
    const today = applyFillToPosition(opening.position, sell(4, 10_600));
    const day = dayPnl({ opening, position: today, markPricePaise: 10_300 });
    // Realised today 4 x 6.00 = 2,400; open 6 units: 6 x 3.00 = 1,800 now against 4,000 yesterday -> -2,200.
    expect(day).toEqual({ realisedPaise: 2_400, markToMarketPaise: -2_200, chargesPaise: 0, netPaise: 200 });
    // The same as today's cash flow plus the change in value: 4 x 106 + 6 x 103 - 10 x 104 = 2.00 rupees.
  });
});

import { isoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { checkOrderRisk, priceBandAround } from './risk-checks';
import type { RiskContext, RiskOrder } from './risk-checks';

// NIFTY on 2-Feb-2026, the 3-Feb weekly: lot 65, freeze quantity 1,800, so at most 1,755 per order.
const NIFTY: RiskContext = {
  lots: { kind: 'contract', contract: { symbol: 'NIFTY', tradeDate: isoDate('2026-02-02'), expiry: isoDate('2026-02-03') } },
  priceBand: priceBandAround({ referencePricePaise: 10_000 }),
  positionQuantity: 0,
  strategyDayPnlPaise: 0,
  strategyMaxLossPaise: 500_000,
  userDayPnlPaise: 0,
  userMaxLossPaise: 2_000_000,
  killSwitch: { user: false, global: false },
};
const buyMarket = (quantity: number): RiskOrder => ({ side: 'BUY', quantity, orderType: 'MARKET' });

function codes(order: RiskOrder, context: RiskContext): string[] {
  const result = checkOrderRisk(order, context);
  return result.ok ? [] : result.error.map((refusal) => refusal.code);
}

describe('risk checks before an order leaves', () => {
  it('passes whole lots and slices above the freeze quantity as the market package does', () => {
    expect(checkOrderRisk(buyMarket(130), NIFTY)).toEqual({ ok: true, value: { lotSize: 65, slices: [130], freezeKnown: true, reducesOnly: false } });
    // 60 lots = 3,900 = 1,755 + 1,755 + 390.
    const sliced = checkOrderRisk(buyMarket(3_900), NIFTY);
    expect(sliced.ok && sliced.value.slices).toEqual([1_755, 1_755, 390]);
  });

  it('refuses a quantity that is not whole lots, with the lot in the sentence', () => {
    const result = checkOrderRisk(buyMarket(100), NIFTY);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toEqual([{ code: 'not-whole-lots', message: 'The quantity 100 is not a whole number of lots of 65.' }]);
  });

  it('refuses an order that would need more than 10 slices', () => {
    // 10 x 1,755 = 17,550 is the most; 271 lots = 17,615 is more.
    expect(codes(buyMarket(17_550), NIFTY)).toEqual([]);
    expect(codes(buyMarket(17_615), NIFTY)).toEqual(['too-many-slices']);
  });

  it('sends an order unsliced where no freeze quantity is known, and says so', () => {
    const stock: RiskContext = { ...NIFTY, lots: { kind: 'explicit', lotSize: 1 } };
    expect(checkOrderRisk(buyMarket(50_000), stock)).toEqual({ ok: true, value: { lotSize: 1, slices: [50_000], freezeKnown: false, reducesOnly: false } });
    const before = { ...NIFTY, lots: { kind: 'contract', contract: { symbol: 'NIFTY', tradeDate: isoDate('2024-06-03'), expiry: isoDate('2024-06-06') } } } as const;
    const old = checkOrderRisk(buyMarket(250), before);
    expect(old.ok && old.value).toEqual({ lotSize: 25, slices: [250], freezeKnown: false, reducesOnly: false });
  });

  it('refuses a limit price or a trigger outside the band, and a priced order with no band', () => {
    // 20% around 100.00: 80.00 to 120.00.
    expect(codes({ side: 'BUY', quantity: 65, orderType: 'LIMIT', pricePaise: 12_000 }, NIFTY)).toEqual([]);
    expect(codes({ side: 'BUY', quantity: 65, orderType: 'LIMIT', pricePaise: 12_005 }, NIFTY)).toEqual(['price-outside-band']);
    expect(codes({ side: 'SELL', quantity: 65, orderType: 'SL', pricePaise: 7_900, triggerPricePaise: 7_950 }, NIFTY)).toEqual(['price-outside-band', 'trigger-outside-band']);
    const { priceBand: _, ...noBand } = NIFTY;
    expect(codes({ side: 'BUY', quantity: 65, orderType: 'SL-M', triggerPricePaise: 10_000 }, noBand)).toEqual(['no-price-band']);
    expect(codes(buyMarket(65), noBand)).toEqual([]);
  });

  it('keeps a band at least Rs 5 wide either side for cheap contracts', () => {
    expect(priceBandAround({ referencePricePaise: 150 })).toEqual({ lowerPaise: 1, upperPaise: 650 });
    expect(priceBandAround({ referencePricePaise: 10_000, basisPoints: 500 })).toEqual({ lowerPaise: 9_500, upperPaise: 10_500 });
  });

  it('stops new exposure at the daily max loss but lets an order that reduces the position through', () => {
    const lost: RiskContext = { ...NIFTY, strategyDayPnlPaise: -500_000, userDayPnlPaise: -2_100_000, positionQuantity: 130 };
    expect(codes(buyMarket(65), lost)).toEqual(['strategy-daily-loss', 'user-daily-loss']);
    expect(checkOrderRisk({ side: 'SELL', quantity: 130, orderType: 'MARKET' }, lost)).toMatchObject({ ok: true, value: { reducesOnly: true } });
    // Selling 195 against a long 130 flips to short: that is new exposure.
    expect(codes({ side: 'SELL', quantity: 195, orderType: 'MARKET' }, lost)).toEqual(['strategy-daily-loss', 'user-daily-loss']);
  });

  it('refuses everything but a reducing square-off while a kill switch is on', () => {
    const stopped: RiskContext = { ...NIFTY, killSwitch: { user: true, global: true }, positionQuantity: -65 };
    expect(codes(buyMarket(65), stopped)).toEqual(['kill-switch-global', 'kill-switch-user']);
    expect(codes({ ...buyMarket(65), squareOff: true }, stopped)).toEqual([]);
    expect(codes({ ...buyMarket(130), squareOff: true }, stopped)).toEqual(['square-off-not-reducing', 'kill-switch-global', 'kill-switch-user']);
  });

  it('reports every reason at once, each with a sentence', () => {
    const result = checkOrderRisk({ side: 'BUY', quantity: 70, orderType: 'LIMIT', pricePaise: 50_000 }, { ...NIFTY, killSwitch: { user: true, global: false } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.map((refusal) => refusal.code)).toEqual(['kill-switch-user', 'not-whole-lots', 'price-outside-band']);
    expect(result.error[2]?.message).toBe('The price Rs 500.00 is outside the allowed band Rs 80.00 to Rs 120.00.');
  });

  it('refuses a contract whose lot is unknown on the date', () => {
    const unknown = { ...NIFTY, lots: { kind: 'contract', contract: { symbol: 'SENSEX', tradeDate: isoDate('2020-01-02') } } } as const;
    expect(codes(buyMarket(10), unknown)).toEqual(['lot-unknown']);
    expect(codes(buyMarket(0), NIFTY)).toEqual(['invalid-quantity']);
  });
});

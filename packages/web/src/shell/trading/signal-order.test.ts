import { describe, expect, it } from 'vitest';
import { signalOrder, sizingText } from './signal-order';

describe('signalOrder', () => {
  it('reads the runner payload: action, instrument, close in rupees and the bar', () => {
    // closePaise 2_450_025 = ₹24,500.25.
    const order = signalOrder(
      { action: 'SELL', instrument: 'NIFTY 50', bar: 1_790_000_000_000, barTime: '2026-09-21T03:45:00.000Z', closePaise: 2_450_025 },
      { sizing: { kind: 'quantity', quantity: 50 }, investment: 50_000_000, legs: null },
    );
    expect(order).toEqual({ action: 'SELL', instrument: 'NIFTY 50', price: '₹24,500.25', quantity: '50 units', barMs: 1_790_000_000_000 });
  });

  it('says an exit closes the whole position whatever the sizing', () => {
    expect(signalOrder({ action: 'EXIT', instrument: 'NIFTY BANK', closePaise: 100 }, { sizing: { kind: 'quantity', quantity: 5 } }).quantity)
      .toBe('the whole open position');
  });

  it('does not invent an action, an instrument or a price the payload lacks', () => {
    expect(signalOrder({ action: 'HOLD', closePaise: 12.5 }, {})).toEqual({
      action: undefined, instrument: '—', price: '—', quantity: 'as the strategy sizes it', barMs: undefined,
    });
    expect(signalOrder(null, null).action).toBeUndefined();
  });
});

describe('sizingText', () => {
  it('gives the units of quantity and lot sizing', () => {
    expect(sizingText({ sizing: { kind: 'quantity', quantity: 1 } })).toBe('1 unit');
    // 2 lots of 75 = 150 units.
    expect(sizingText({ sizing: { kind: 'lots', lots: 2, lotSize: 75 } })).toBe('2 lots × 75 = 150 units');
  });

  it('names the investment for sizing decided at the fill', () => {
    // investment 1_00_000_00 paise = ₹1,00,000.00.
    expect(sizingText({ sizing: { kind: 'all-in' }, investment: 10_000_000 })).toBe('as many as ₹1,00,000.00 buys at the fill price');
    expect(sizingText({ sizing: { kind: 'percent', percent: 25 }, investment: 10_000_000 })).toBe('25% of ₹1,00,000.00, sized at the fill price');
  });

  it('points at the legs of an options strategy', () => {
    expect(sizingText({ legs: { legs: [] }, sizing: { kind: 'quantity', quantity: 3 } })).toBe("the strategy's option legs");
  });
});

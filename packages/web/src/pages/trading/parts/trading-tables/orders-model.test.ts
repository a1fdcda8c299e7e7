import { describe, expect, it } from 'vitest';
import { chargesBreakdownText, chargesTotal, ORDER_STATES, orderState, paiseOf, priceText, triggerLimitText } from './orders-model';

describe('orderState', () => {
  it('gives every OMS state its own words, and rejected orders red', () => {
    const labels = Object.values(ORDER_STATES).map((state) => state.label);
    expect(new Set(labels).size).toBe(9);
    expect(orderState('REJECTED')).toEqual({ color: 'red', label: 'Rejected' });
    expect(orderState('PARTIALLY_FILLED').label).toBe('Partially filled');
  });
  it('shows a state it does not know as it is', () => {
    expect(orderState('EXPIRED')).toEqual({ color: 'gray', label: 'EXPIRED' });
  });
});

describe('money columns', () => {
  it('reads bigint columns that arrive as strings', () => {
    expect(paiseOf('2144320')).toBe(2_144_320);
    expect(paiseOf(null)).toBeUndefined();
    expect(priceText('2144320')).toBe('21,443.20');
    expect(priceText(null)).toBe('—');
  });
  it('sums a fill’s charges and lists the parts largest first', () => {
    // 2,000 + 360 + 15 + 11 = 2,386 paise; the zero part is left out of the words.
    const charges = { brokerage: 2000, gst: 360, stt: 15, exchange: 11, sebi: 0 };
    expect(chargesTotal(charges)).toBe(2386);
    expect(chargesTotal(null)).toBe(0);
    expect(chargesBreakdownText(charges)).toBe('Brokerage ₹20.00 · GST ₹3.60 · STT ₹0.15 · Exchange ₹0.11');
  });
  it('writes trigger and limit together or alone', () => {
    expect(triggerLimitText({ trigger_price_paise: 2_140_000, price_paise: 2_139_000 })).toBe('T 21,400.00 / L 21,390.00');
    expect(triggerLimitText({ trigger_price_paise: null, price_paise: '2139000' })).toBe('L 21,390.00');
    expect(triggerLimitText({ trigger_price_paise: null, price_paise: null })).toBe('—');
  });
});

import { describe, expect, it } from 'vitest';
import { basketOfConfig, MAX_BASKET_LEGS, parseBasket } from './basket-legs';

const leg = { symbol: ' nifty26decfut ', side: 'BUY', lots: 1, order_type: 'MARKET' };

describe('a basket\'s legs as written', () => {
  it('keeps a good basket, the symbol trimmed and upper-cased', () => {
    expect(parseBasket({ product: 'NRML', legs: [leg] })).toEqual({
      ok: true, value: { version: 1, product: 'NRML', legs: [{ symbol: 'NIFTY26DECFUT', side: 'BUY', lots: 1, order_type: 'MARKET' }] },
    });
  });

  it('names every wrong field of every leg', () => {
    const result = parseBasket({
      product: 'CNC',
      legs: [
        { ...leg, side: 'HOLD' },
        { ...leg, lots: 0 },
        { ...leg, lots: undefined },
        { ...leg, quantity: 5 },
        { ...leg, order_type: 'LIMIT' },
        { ...leg, order_type: 'SL-M', price_paise: 100 },
      ],
    });
    expect(result.ok ? [] : result.error.map((issue) => [issue.field, issue.code])).toEqual([
      ['product', 'invalid'],
      ['legs[0].side', 'invalid'],
      ['legs[1].lots', 'invalid-quantity'],
      ['legs[2].lots', 'size'],
      ['legs[3].lots', 'size'],
      ['legs[4].price_paise', 'required'],
      ['legs[5].price_paise', 'not-allowed'],
      ['legs[5].trigger_price_paise', 'required'],
    ]);
  });

  it('refuses no legs and too many', () => {
    expect(parseBasket({ product: 'MIS', legs: [] })).toMatchObject({ ok: false, error: [{ field: 'legs', code: 'required' }] });
    expect(parseBasket({ product: 'MIS', legs: Array.from({ length: MAX_BASKET_LEGS + 1 }, () => leg) })).toMatchObject({ ok: false, error: [{ field: 'legs', code: 'too-many' }] });
  });

  it('reads a saved config of version 1 only', () => {
    expect(basketOfConfig({ basket: { version: 1, product: 'MIS', legs: [leg] } })?.legs).toHaveLength(1);
    expect(basketOfConfig({ basket: { version: 2, product: 'MIS', legs: [leg] } })).toBeUndefined();
    expect(basketOfConfig({})).toBeUndefined();
  });
});

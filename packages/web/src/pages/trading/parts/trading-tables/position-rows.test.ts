import { black76Price, black76PriceAndGreeks, SYNTHETIC_RATE, yearsToExpiry } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import type { LastPrice } from '../use-last-prices';
import { optionGreeks, positionLines, positionTotals, pricedInstrumentIds, squareOffPlan, unrealisedAt } from './position-rows';
import type { PositionRow } from './position-rows';

const NIFTY = 26000;
const CALL = 90001;

function row(overrides: Partial<PositionRow> = {}): PositionRow {
  return {
    run_id: '11111111-1111-4111-8111-111111111111', instrument_id: NIFTY, net_quantity: 50, average_price_paise: 2_200_000,
    open_cost_paise: 110_000_000, realised_pnl_paise: '-12000', unrealised_pnl_paise: 250_000, mark_price_paise: 2_205_000, charges_paise: 4_000,
    updated_at: '2026-10-30T05:00:00Z',
    instrument: { trading_symbol: 'NIFTY', exchange: 'NSE', kind: 'index', option_type: null, strike_paise: null, expiry: null, underlying_instrument_id: null },
    run: { kind: 'PAPER', status: 'IN PROGRESS', params: { replay: null }, strategy: { strategy_id: 's-1', name: 'EMA' } },
    ...overrides,
  };
}

function price(instrumentId: number, pricePaise: number, iso: string): [number, LastPrice] {
  return [instrumentId, { instrumentId, pricePaise, rupees: pricePaise / 100, atMs: Date.parse(iso), source: 'candle' }];
}

describe('unrealisedAt', () => {
  it('values long and short units against their open cost', () => {
    // Long 50 bought for Rs 11,00,000 (Rs 22,000 each), at Rs 22,050: 50 x 22,050 - 11,00,000 = Rs 2,500.
    expect(unrealisedAt({ quantity: 50, openCostPaise: 110_000_000, pricePaise: 2_205_000 })).toBe(250_000);
    // Short 50 sold for Rs 11,00,000, at Rs 21,900: 11,00,000 - 50 x 21,900 = Rs 5,000.
    expect(unrealisedAt({ quantity: -50, openCostPaise: 110_000_000, pricePaise: 2_190_000 })).toBe(500_000);
    expect(unrealisedAt({ quantity: 0, openCostPaise: 0, pricePaise: 2_190_000 })).toBe(0);
  });
});

describe('positionLines', () => {
  it('values a market run at a newer last price, and keeps the mark when the last price is older', () => {
    const newer = new Map([price(NIFTY, 2_210_000, '2026-10-30T05:01:00Z')]);
    const [line] = positionLines([row()], newer);
    expect(line).toMatchObject({ ltpPaise: 2_210_000, ltpSource: 'last price', unrealisedPaise: 50 * 2_210_000 - 110_000_000, realisedPaise: -12_000 });
    const older = new Map([price(NIFTY, 2_210_000, '2026-10-30T04:59:00Z')]);
    expect(positionLines([row()], older)[0]).toMatchObject({ ltpPaise: 2_205_000, ltpSource: 'mark', unrealisedPaise: 250_000 });
  });

  it("values a replay run at its own mark whatever today's last price is", () => {
    const replay = row({ run: { kind: 'PAPER', status: 'IN PROGRESS', params: { replay: { from: '2026-10-01', to: '2026-10-30', speed: 600 } }, strategy: null } });
    const [line] = positionLines([replay], new Map([price(NIFTY, 2_300_000, '2026-11-28T05:00:00Z')]));
    expect(line).toMatchObject({ ltpPaise: 2_205_000, ltpSource: 'mark', unrealisedPaise: 250_000, strategyName: undefined });
  });

  it('names a LIVE run\'s broker account and sums the totals', () => {
    const live = row({ run_id: '22222222-2222-4222-8222-222222222222', run: { kind: 'LIVE', status: 'IN PROGRESS', params: { replay: null, userBrokerId: 'ub-1' }, strategy: null } });
    const lines = positionLines([row(), live], new Map());
    expect(lines.map((line) => line.brokerAccountId)).toEqual([undefined, 'ub-1']);
    const totals = positionTotals(lines);
    expect(totals).toMatchObject({ unrealisedPaise: 500_000, realisedPaise: -24_000, chargesPaise: 8_000 });
  });
});

describe('option greeks', () => {
  const now = Date.parse('2026-10-30T05:00:00Z');
  const expiry = '2026-11-26';

  it('solves the Black-76 volatility of the LTP and returns the engine\'s greeks times the quantity', () => {
    const years = yearsToExpiry(now, expiry);
    const forward = 25_000 * Math.exp(SYNTHETIC_RATE * years);
    const premium = black76Price({ forward, strike: 25_100, years, vol: 0.14, rate: SYNTHETIC_RATE, type: 'call' });
    const greeks = optionGreeks({ optionType: 'CE', strikeRupees: 25_100, expiry, quantity: -75, priceRupees: premium, spotRupees: 25_000, nowMs: now });
    expect(greeks?.iv).toBeCloseTo(0.14, 6);
    const unit = black76PriceAndGreeks({ forward, strike: 25_100, years, vol: 0.14, rate: SYNTHETIC_RATE, type: 'call' });
    // Black-76's delta is per unit of the forward; per unit of spot it is scaled by dF/dS = e^(rT).
    expect(greeks?.delta).toBeCloseTo(-75 * unit.delta * Math.exp(SYNTHETIC_RATE * years), 6);
    expect(greeks!.theta).toBeGreaterThan(0);
  });

  it('gives an option position of a market run its greeks, net per underlying, and none to an expired one', () => {
    const option = row({
      instrument_id: CALL, net_quantity: -75, open_cost_paise: 75 * 20_000, average_price_paise: 20_000, mark_price_paise: 19_000,
      instrument: { trading_symbol: 'NIFTY26NOV25100CE', exchange: 'NFO', kind: 'option', option_type: 'CE', strike_paise: 2_510_000, expiry, underlying_instrument_id: NIFTY },
    });
    expect(pricedInstrumentIds([option])).toEqual([NIFTY, CALL].sort((a, b) => a - b));
    const prices = new Map([price(NIFTY, 2_500_000, '2026-10-30T05:01:00Z'), price(CALL, 19_500, '2026-10-30T05:01:00Z')]);
    const lines = positionLines([option, option], prices);
    expect(lines[0]!.greeks?.delta).toBeLessThan(0);
    expect(positionTotals(lines).greeksByUnderlying.get(NIFTY)?.delta).toBeCloseTo(2 * lines[0]!.greeks!.delta, 9);
    const expired = row({ ...option, instrument: { ...option.instrument!, expiry: '2026-10-01' } });
    expect(positionLines([expired], prices)[0]!.greeks).toBeUndefined();
  });
});

describe('squareOffPlan', () => {
  it('asks for every position and names each strategy once with the symbols it holds', () => {
    const other = row({ instrument_id: CALL, instrument: { ...row().instrument!, trading_symbol: 'BANKNIFTY' } });
    const plan = squareOffPlan(positionLines([row(), other], new Map()));
    expect(plan.keys).toEqual([{ run_id: row().run_id, instrument_id: NIFTY }, { run_id: row().run_id, instrument_id: CALL }]);
    expect(plan.strategies).toEqual([{ name: 'EMA', symbols: ['NIFTY', 'BANKNIFTY'] }]);
    expect(plan.baskets).toEqual([]);
  });

  it("names a basket placement's positions apart, LIVE or not, and stops no strategy for them", () => {
    const live = row({
      run_id: '33333333-3333-4333-8333-333333333333',
      run: { kind: 'LIVE', status: 'COMPLETE', params: { userBrokerId: 'ub-1', basket: { legs: [] } }, strategy: { strategy_id: 's-2', name: 'Hedge' } },
    });
    const paper = row({ run_id: '44444444-4444-4444-8444-444444444444', run: { kind: 'PAPER', status: 'ERROR', params: { basket: { legs: [] } }, strategy: { strategy_id: 's-3', name: 'Straddle' } } });
    const lines = positionLines([row(), live, paper], new Map());
    expect(lines.map((line) => [line.basket, line.closable])).toEqual([[false, true], [true, true], [true, true]]);
    const plan = squareOffPlan(lines);
    expect(plan.strategies).toEqual([{ name: 'EMA', symbols: ['NIFTY'] }]);
    expect(plan.baskets).toEqual([{ name: 'Hedge', symbols: ['NIFTY'], live: true }, { name: 'Straddle', symbols: ['NIFTY'], live: false }]);
    expect(plan.keys).toHaveLength(3);
  });
});

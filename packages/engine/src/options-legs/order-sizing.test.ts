import { describe, expect, it } from 'vitest';
import { isoDate } from '@vyuha/core';
import { legSizing } from './order-sizing';
import { parseOptionsLegsConfig } from './config';
import { SIGNAL_BUY } from '../algorithm/program';
import { barSeriesOf, INTRADAY_RULES, runExample } from './examples/example-support';

describe('legSizing', () => {
  it('uses the lot of the contract: an old contract keeps its lot across a revision', () => {
    // NIFTY went from 25 to 75 for contracts expiring from 1-Jan-2025; December 2024 contracts stayed at 25.
    expect(legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2024-12-02'), expiry: isoDate('2024-12-05'), lots: 2 })).toMatchObject({ lotSize: 25, quantity: 50 });
    expect(legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2024-12-02'), expiry: isoDate('2025-01-30'), lots: 2 })).toMatchObject({ lotSize: 75, quantity: 150 });
  });

  it('slices above the freeze quantity into the largest lot multiples first', () => {
    expect(legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2026-02-02'), expiry: isoDate('2026-02-03'), lots: 60 }))
      .toEqual({ lotSize: 65, quantity: 3_900, slices: [1_755, 1_755, 390], freezeKnown: true });
    expect(() => legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2026-02-02'), expiry: isoDate('2026-02-03'), lots: 300 })).toThrow(/limit is 10/);
  });

  it('sends one order where no freeze quantity is known (before 1-Aug-2024)', () => {
    expect(legSizing({ underlying: 'NIFTY', tradeDate: isoDate('2023-06-05'), expiry: isoDate('2023-06-08'), lots: 100 }))
      .toEqual({ lotSize: 50, quantity: 5_000, slices: [5_000], freezeKnown: false });
  });
});

describe('sliced orders in a run', () => {
  it('counts each slice as an order and charges brokerage on each', () => {
    // 30 lots of 65 = 1,950 units: slices of 1,755 and 195, entered and squared off: 4 orders.
    const series = barSeriesOf([
      ['2026-02-02 09:19', 25_010, 25_020, 25_000, 25_012], ['2026-02-02 09:20', 25_012, 25_030, 25_000, 25_020], ['2026-02-02 15:15', 25_030, 25_040, 25_020, 25_035],
    ]);
    const config = parseOptionsLegsConfig({ underlying: 'NIFTY', onBuy: [{ option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 30 }] });
    const { ledger } = runExample({ series, config, signals: new Map([[0, SIGNAL_BUY]]), rules: INTRADAY_RULES, vix: 13 });
    expect(ledger.fills.map((fill) => [fill.side, fill.quantity, fill.reason])).toEqual([['sell', 1_755, 'entry'], ['sell', 195, 'entry'], ['buy', 1_755, 'square-off'], ['buy', 195, 'square-off']]);
    expect(ledger.fills.every((fill) => fill.charges.brokerage === 2_000)).toBe(true);
    expect(ledger.days[0]?.orders).toBe(4);
    expect(ledger.trades.map((trade) => trade.quantity)).toEqual([1_755, 195]);
  });
});

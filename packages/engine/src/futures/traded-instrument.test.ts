import { isoDate, paise } from '@vyuha/core';
import { equityDeliveryChargesFor, equityIntradayChargesFor } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { SIGNAL_BUY, SIGNAL_EXIT } from '../algorithm/program';
import { runBacktest } from '../backtest/run-backtest';
import { barsFromRows, scriptedProgram } from '../backtest/test-support';
import { futuresRangeIssue, tradedInstrumentOf } from './traded-instrument';

describe('what a backtest of an instrument trades', () => {
  it('trades an index with futures as its near-month future, with futures charges on its exchange', () => {
    expect(tradedInstrumentOf({ kind: 'index', exchange: 'NSE', tradingSymbol: 'NIFTY' }, 'intraday')).toEqual({
      ok: true, value: { kind: 'index-futures', underlying: 'NIFTY', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } },
    });
    expect(tradedInstrumentOf({ kind: 'index', exchange: 'BSE', tradingSymbol: 'SENSEX' }, 'swing')).toEqual({
      ok: true, value: { kind: 'index-futures', underlying: 'SENSEX', charges: { kind: 'schedule', exchange: 'BSE', instrument: 'future' } },
    });
  });

  it('refuses an index without futures with the reason', () => {
    const vix = tradedInstrumentOf({ kind: 'index', exchange: 'NSE', tradingSymbol: 'INDIA VIX' }, 'intraday');
    expect(vix).toEqual({ ok: false, error: "INDIA VIX cannot be traded: an index is traded through its futures or options, and INDIA VIX has none in Vyuha's market data (indices with futures: NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX)" });
  });

  it('trades a stock with intraday charges intraday and delivery charges swing (NSE only)', () => {
    expect(tradedInstrumentOf({ kind: 'equity', exchange: 'NSE', tradingSymbol: 'TCS' }, 'intraday')).toEqual({
      ok: true, value: { kind: 'equity', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' } },
    });
    expect(tradedInstrumentOf({ kind: 'equity', exchange: 'NSE', tradingSymbol: 'TCS' }, 'swing')).toEqual({
      ok: true, value: { kind: 'equity', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'equity-delivery' } },
    });
    expect(tradedInstrumentOf({ kind: 'equity', exchange: 'BSE', tradingSymbol: 'TCS' }, 'swing')).toEqual({ ok: false, error: 'BSE:TCS: equity charges are scheduled for NSE only' });
  });

  it('refuses a contract picked directly, saying how to trade it', () => {
    expect(tradedInstrumentOf({ kind: 'future', exchange: 'NFO', tradingSymbol: 'NIFTY24DECFUT' }, 'swing')).toMatchObject({ ok: false, error: expect.stringMatching(/^NIFTY24DECFUT is a futures contract: choose its index/) });
    expect(tradedInstrumentOf({ kind: 'option', exchange: 'NFO', tradingSymbol: 'NIFTY24DEC24000CE' }, 'swing')).toMatchObject({ ok: false, error: expect.stringMatching(/Option legs$/) });
  });

  it('says when a range starts before the index\'s futures are known', () => {
    expect(futuresRangeIssue('MIDCPNIFTY', isoDate('2021-12-01'))).toBe("MIDCPNIFTY futures are known from 2022-01-24 (the first contract in Vyuha's market data); this range starts 2021-12-01");
    expect(futuresRangeIssue('NIFTY', isoDate('2020-01-01'))).toBeUndefined();
  });
});

describe('a stock backtest is charged as an equity trade', () => {
  // TCS, 100 shares bought at 4,000.00 and sold at 4,050.00 on 3-Feb-2025.
  const series = barsFromRows([
    ['2025-02-03 09:15', 3_990, 4_005, 3_985, 4_000],
    ['2025-02-03 09:30', 4_000, 4_030, 3_995, 4_020],
    ['2025-02-03 09:45', 4_020, 4_060, 4_015, 4_050],
    ['2025-02-03 10:00', 4_050, 4_055, 4_040, 4_045],
  ]);
  const run = (type: 'intraday' | 'swing') => {
    const traded = tradedInstrumentOf({ kind: 'equity', exchange: 'NSE', tradingSymbol: 'TCS' }, type);
    if (!traded.ok) throw new Error(traded.error);
    return runBacktest({
      series, program: scriptedProgram(new Map([[0, SIGNAL_BUY], [2, SIGNAL_EXIT]])),
      config: { type, instrument: 'TCS', sizing: { kind: 'quantity', quantity: 100 }, charges: traded.value.charges },
    });
  };

  it('pays the market package\'s intraday charges on each fill of an intraday run, and delivery charges on a swing run', () => {
    const order = (side: 'buy' | 'sell', rupees: number) => ({ date: '2025-02-03', exchange: 'NSE', side, price: paise(rupees * 100), quantity: 100 } as const);
    expect(run('intraday').fills.map((fill) => fill.chargesTotal)).toEqual([
      equityIntradayChargesFor(order('buy', 4_000)).total, equityIntradayChargesFor(order('sell', 4_050)).total,
    ]);
    expect(run('swing').fills.map((fill) => fill.chargesTotal)).toEqual([
      equityDeliveryChargesFor(order('buy', 4_000)).total, equityDeliveryChargesFor(order('sell', 4_050)).total,
    ]);
    // Delivery: STT 0.1% on both sides, Rs 400 and Rs 405.
    expect(run('swing').fills.map((fill) => fill.charges.stt)).toEqual([40_000, 40_500]);
  });
});

import { addDays, type IsoDate } from '@vyuha/core';
import { expiryCloseEpochMs, syntheticOptionQuote } from '@vyuha/engine';
import { nextExpiry } from '@vyuha/market';
import { describe, expect, it } from 'vitest';
import { optionChain } from './option-chain';

const CLOSE_30_OCT = Date.UTC(2026, 9, 30, 10, 0); // 15:30 IST, a Friday

describe('option chain', () => {
  it('prices strikes around the ATM for the nearest expiry, greeks signed as they should be, OI unknown', () => {
    const chain = optionChain({ underlying: 'NIFTY', spot: 24_510, vix: 14, at: CLOSE_30_OCT, step: 50, stepsEachSide: 2 });
    expect(chain).toBeDefined();
    if (chain === undefined) return;
    expect(chain.expiry).toBe(nextExpiry('NIFTY', '2026-10-30' as IsoDate)?.date);
    expect(chain.rows.map((row) => row.strike)).toEqual([24_400, 24_450, 24_500, 24_550, 24_600]);
    expect(chain.rows.filter((row) => row.atm).map((row) => row.strike)).toEqual([24_500]);
    for (const row of chain.rows) {
      expect(row.ce.delta).toBeGreaterThan(0);
      expect(row.ce.delta).toBeLessThan(1);
      expect(row.pe.delta).toBeLessThan(0);
      expect(row.pe.delta).toBeGreaterThan(-1);
      expect(row.ce.gamma).toBeGreaterThan(0);
      expect(row.ce.vega).toBeGreaterThan(0);
      expect(row.ce.theta).toBeLessThan(0);
      expect(row.ce.oi).toBeUndefined();
      expect(row.pe.oi).toBeUndefined();
    }
    // Calls get cheaper and puts dearer as the strike rises.
    const calls = chain.rows.map((row) => row.ce.ltpPaise);
    const puts = chain.rows.map((row) => row.pe.ltpPaise);
    expect([...calls].sort((a, b) => b - a)).toEqual(calls);
    expect([...puts].sort((a, b) => a - b)).toEqual(puts);
    // The LTP is the engine's synthetic quote mid.
    const atm = chain.rows[2]!;
    expect(atm.ce.ltpPaise).toBe(syntheticOptionQuote({ spot: 24_510, vix: 14, strike: 24_500, expiry: chain.expiry, at: CLOSE_30_OCT, type: 'CE' }).mid);
  });


  it('rolls to the next expiry once an expiry day has closed', () => {
    const expiry = nextExpiry('NIFTY', '2026-10-30' as IsoDate);
    if (expiry === undefined) throw new Error('no expiry');
    const close = expiryCloseEpochMs(expiry.date);
    const chainAt = (at: number) => optionChain({ underlying: 'NIFTY', spot: 24_510, vix: 14, at, step: 50 });
    expect(chainAt(close - 60_000)?.expiry).toBe(expiry.date);
    expect(chainAt(close)?.expiry).toBe(nextExpiry('NIFTY', addDays(expiry.date, 1))?.date);
  });

  it('has no chain outside the expiry calendar', () => {
    expect(optionChain({ underlying: 'NIFTY', spot: 24_510, vix: 14, at: Date.UTC(2035, 0, 1), step: 50 })).toBeUndefined();
  });
});

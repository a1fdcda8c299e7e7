// What a backtest of an instrument (without option legs) actually trades, and what it is charged:
// - an index with futures: its near-month future (futures-chain.ts), futures charges on the
//   index's exchange (NSE; BSE for SENSEX);
// - an index without futures (INDIA VIX): refused, an index cannot be traded itself;
// - a stock (kind `equity`, NSE): its shares, with intraday (MIS) charges for an intraday
//   strategy and delivery (CNC) charges for a swing one;
// - an option or futures contract picked directly: refused with the way to trade it.
// The server checks a request with this before writing anything, the worker and the CLI run what
// it says, and the form shows the same refusal at the instrument field.
import { err, ok } from '@vyuha/core';
import type { IsoDate, Result } from '@vyuha/core';
import { derivativesKnownFrom, hasIndexFutures, OPTION_UNDERLYINGS } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';
import type { ChargesConfig } from '../kernel/charges-model';

/** An instruments row as far as this decision reads it. */
export interface InstrumentFacts {
  readonly kind: string;
  readonly exchange: string;
  readonly tradingSymbol: string;
}

export type TradedInstrument =
  | { readonly kind: 'index-futures'; readonly underlying: OptionUnderlying; readonly charges: ChargesConfig }
  | { readonly kind: 'equity'; readonly charges: ChargesConfig };

const WITH_FUTURES = OPTION_UNDERLYINGS.join(', ');

/**
 * What a backtest of `instrument` trades, or why it cannot be traded.
 * @example tradedInstrumentOf({ kind: 'index', exchange: 'NSE', tradingSymbol: 'NIFTY' }, 'swing') // ok({ kind: 'index-futures', underlying: 'NIFTY', ... })
 */
export function tradedInstrumentOf(instrument: InstrumentFacts, strategyType: 'intraday' | 'swing'): Result<TradedInstrument, string> {
  const { kind, exchange, tradingSymbol: symbol } = instrument;
  if (kind === 'index') {
    if (!hasIndexFutures(symbol)) {
      return err(`${symbol} cannot be traded: an index is traded through its futures or options, and ${symbol} has none in Vyuha's market data (indices with futures: ${WITH_FUTURES})`);
    }
    return ok({ kind: 'index-futures', underlying: symbol, charges: { kind: 'schedule', exchange: exchange === 'BSE' ? 'BSE' : 'NSE', instrument: 'future' } });
  }
  if (kind === 'equity') {
    if (exchange !== 'NSE') return err(`${exchange}:${symbol}: equity charges are scheduled for NSE only`);
    return ok({ kind: 'equity', charges: { kind: 'schedule', exchange: 'NSE', instrument: strategyType === 'intraday' ? 'equity-intraday' : 'equity-delivery' } });
  }
  if (kind === 'future') return err(`${symbol} is a futures contract: choose its index instead, whose near-month future is traded and rolled at each expiry`);
  if (kind === 'option') return err(`${symbol} is an option contract: choose its index and trade it with Option legs`);
  return err(`${symbol}: instruments of kind ${JSON.stringify(kind)} cannot be backtested`);
}

/**
 * Why a date range cannot trade `underlying`'s futures (it starts before our data names a
 * contract), or undefined when it can.
 * @example futuresRangeIssue('FINNIFTY', '2020-06-01') // 'FINNIFTY futures are known from 2021-01-11 ...'
 */
export function futuresRangeIssue(underlying: OptionUnderlying, from: IsoDate): string | undefined {
  const known = derivativesKnownFrom(underlying);
  return from < known ? `${underlying} futures are known from ${known} (the first contract in Vyuha's market data); this range starts ${from}` : undefined;
}

// Bhavcopy contracts -> rows of the import's staging table (COPY text), with the names and
// symbols of the instruments that may have to be created.

import { isIsoDate, paiseToRupees } from '@vyuha/core';
import { buildTradingSymbol, isOptionUnderlying, TradingSymbolError, type BhavcopyContract, type DerivativeContract } from '@vyuha/market';
import { copyNumber, copyText } from './copy-stream';

/** The dated lot-size schedule, for legacy files that carry no lot size. */
export type LotSizeFor = (symbol: string, tradeDate: string, expiry: string) => number | undefined;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Columns of the staging table, in COPY order. */
export const STAGING_COLUMNS = [
  'file_index integer NOT NULL', 'symbol text NOT NULL', 'underlying_kind text NOT NULL', 'kind text NOT NULL',
  'expiry date NOT NULL', 'strike_paise bigint', 'option_type text', 'trading_symbol text NOT NULL', 'name text NOT NULL',
  'lot_size integer', 'trade_date date NOT NULL', 'open_paise integer', 'high_paise integer', 'low_paise integer',
  'close_paise integer', 'settle_paise integer', 'contracts bigint', 'volume bigint', 'oi bigint NOT NULL',
];

function rupees(paise: number): string {
  return paiseToRupees(paise).toString();
}

/**
 * The Kite-style trading symbol of a contract, so that imported instruments read as a broker's do.
 * Index contracts go through the expiry calendar (weekly `NIFTY2432122000CE`, monthly
 * `NIFTY24MAR22000CE`, `NIFTY24MARFUT`); stock contracts are monthly only (`TCS24JULFUT`). A contract
 * the calendar does not know (an unlisted index, a date it does not cover) keeps a dated form,
 * `NIFTYNXT5024JUL2670000CE`, that can never collide with another expiry.
 * @example contractSymbol({ symbol: 'NIFTY', instrumentType: 'index_option', expiry: '2024-03-28', strike: 2200000, optionType: 'CE' }) // 'NIFTY24MAR22000CE'
 */
export function contractSymbol(contract: Pick<BhavcopyContract, 'symbol' | 'instrumentType' | 'expiry' | 'strike' | 'optionType'>): string {
  const [year, month, day] = contract.expiry.split('-') as [string, string, string];
  const monthName = `${year.slice(2)}${MONTHS[Number(month) - 1]}`;
  const tail = contract.strike === null || contract.optionType === null ? 'FUT' : `${rupees(contract.strike)}${contract.optionType}`;
  const onIndex = contract.instrumentType === 'index_option' || contract.instrumentType === 'index_future';
  if (!onIndex) return `${contract.symbol}${monthName}${tail}`;
  const kite = isOptionUnderlying(contract.symbol) ? kiteIndexSymbol(contract) : undefined;
  return kite ?? `${contract.symbol}${monthName}${day}${tail}`;
}

function kiteIndexSymbol(contract: Pick<BhavcopyContract, 'symbol' | 'expiry' | 'strike' | 'optionType'>): string | undefined {
  if (!isIsoDate(contract.expiry)) return undefined;
  const derivative: DerivativeContract = contract.strike === null || contract.optionType === null
    ? { kind: 'future', underlying: contract.symbol, expiry: contract.expiry }
    : { kind: 'option', underlying: contract.symbol, expiry: contract.expiry, strike: paiseToRupees(contract.strike), optionType: contract.optionType };
  try {
    return buildTradingSymbol(derivative);
  } catch (error) {
    if (error instanceof TradingSymbolError || error instanceof RangeError) return undefined;
    throw error;
  }
}

function contractName(contract: BhavcopyContract): string {
  if (contract.strike === null || contract.optionType === null) return `${contract.symbol} ${contract.expiry} FUT`;
  return `${contract.symbol} ${contract.expiry} ${rupees(contract.strike)} ${contract.optionType}`;
}

/** One staging line (COPY text) for a contract of the `fileIndex`-th file. */
export function stagingLine(contract: BhavcopyContract, options: { fileIndex: number; lotSize: number | null }): string {
  const isOption = contract.instrumentType === 'index_option' || contract.instrumentType === 'stock_option';
  const isIndex = contract.instrumentType === 'index_option' || contract.instrumentType === 'index_future';
  return [
    String(options.fileIndex), copyText(contract.symbol), isIndex ? 'index' : 'equity', isOption ? 'option' : 'future',
    contract.expiry, copyNumber(contract.strike), copyText(contract.optionType), copyText(contractSymbol(contract)),
    copyText(contractName(contract)), copyNumber(options.lotSize), contract.tradeDate,
    copyNumber(contract.open), copyNumber(contract.high), copyNumber(contract.low), copyNumber(contract.close),
    copyNumber(contract.settle), copyNumber(contract.contracts), copyNumber(contract.volume), String(contract.openInterest),
  ].join('\t') + '\n';
}

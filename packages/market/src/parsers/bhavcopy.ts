// NSE F&O bhavcopy (end-of-day contract prices) in both formats NSE has published:
//   legacy  (to 8-Jul-2024): INSTRUMENT,SYMBOL,EXPIRY_DT,STRIKE_PR,OPTION_TYP,OPEN,...,TIMESTAMP
//   UDiFF   (from 8-Jul-2024): TradDt,BizDt,Sgmt,Src,FinInstrmTp,...,NewBrdLotQty,...
// Text in, contracts out; the format is recognised from the header. All or nothing.

import { err, ok, type IsoDate, type Paise, type Result } from '@vyuha/core';
import { cellReader, type CellReader } from './bhavcopy-cells';
import { readTable, type TableRow } from './bhavcopy-table';
import { IssueCollector, type ParseIssue } from './parse-issue';
import { tradeDateProblem, type SessionRules } from './session-check';

export type BhavcopyFormat = 'legacy' | 'udiff';
export type BhavcopyInstrumentType = 'index_future' | 'stock_future' | 'index_option' | 'stock_option';
export type BhavcopyOptionType = 'CE' | 'PE';

/** One contract's day in a bhavcopy. Prices in paise; null OHLC = the contract did not trade. */
export interface BhavcopyContract {
  readonly symbol: string;
  readonly instrumentType: BhavcopyInstrumentType;
  readonly expiry: IsoDate;
  /** Options only; null for futures. */
  readonly strike: Paise | null;
  readonly optionType: BhavcopyOptionType | null;
  readonly open: Paise | null;
  readonly high: Paise | null;
  readonly low: Paise | null;
  readonly close: Paise | null;
  readonly settle: Paise | null;
  /** Open interest as published (units). */
  readonly openInterest: number;
  /** Contracts traded (legacy CONTRACTS); null in UDiFF. */
  readonly contracts: number | null;
  /** Traded volume (UDiFF TtlTradgVol); null in legacy. */
  readonly volume: number | null;
  /** Lot size (UDiFF NewBrdLotQty); legacy files carry none: null. */
  readonly lotSize: number | null;
  readonly tradeDate: IsoDate;
}

export interface Bhavcopy {
  readonly format: BhavcopyFormat;
  readonly contracts: readonly BhavcopyContract[];
}

const LEGACY_COLUMNS = ['INSTRUMENT', 'SYMBOL', 'EXPIRY_DT', 'STRIKE_PR', 'OPTION_TYP', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'SETTLE_PR', 'CONTRACTS', 'OPEN_INT', 'TIMESTAMP'];
const UDIFF_COLUMNS = ['TradDt', 'FinInstrmTp', 'TckrSymb', 'XpryDt', 'StrkPric', 'OptnTp', 'OpnPric', 'HghPric', 'LwPric', 'ClsPric', 'SttlmPric', 'OpnIntrst', 'TtlTradgVol', 'NewBrdLotQty'];

const LEGACY_TYPES: Readonly<Record<string, BhavcopyInstrumentType>> = {
  FUTIDX: 'index_future', FUTSTK: 'stock_future', OPTIDX: 'index_option', OPTSTK: 'stock_option',
};
const UDIFF_TYPES: Readonly<Record<string, BhavcopyInstrumentType>> = {
  IDF: 'index_future', STF: 'stock_future', IDO: 'index_option', STO: 'stock_option',
};

/** Which format a bhavcopy's header line is, or undefined when it is neither. */
export function detectBhavcopyFormat(text: string): BhavcopyFormat | undefined {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length).toUpperCase();
  if (firstLine.includes('INSTRUMENT') && firstLine.includes('EXPIRY_DT')) return 'legacy';
  if (firstLine.includes('FININSTRMTP') && firstLine.includes('TCKRSYMB')) return 'udiff';
  return undefined;
}

export interface BhavcopyOptions {
  /**
   * Refuse trade dates that cannot be real: after today, or a day the exchange (NFO for these
   * files) has no session the rules allow. Each bad date is reported once, at its first row.
   */
  readonly sessions?: SessionRules;
}

/**
 * Parses an NSE F&O bhavcopy of either format into contracts, or returns its issues (first 20).
 * @example parseBhavcopy(udiffText) // ok({ format: 'udiff', contracts: [{ symbol: 'NIFTY', ... }] })
 */
export function parseBhavcopy(text: string, options: BhavcopyOptions = {}): Result<Bhavcopy, ParseIssue[]> {
  const format = detectBhavcopyFormat(text);
  if (format === undefined) {
    return err([{ line: 1, column: 1, reason: 'not an NSE F&O bhavcopy: expected the legacy header (INSTRUMENT,SYMBOL,EXPIRY_DT,...) or the UDiFF header (TradDt,BizDt,...,FinInstrmTp,...)' }]);
  }
  const issues = new IssueCollector();
  const contracts: BhavcopyContract[] = [];
  const readRow = format === 'legacy' ? legacyContract : udiffContract;
  const dateColumn = format === 'legacy' ? 'TIMESTAMP' : 'TradDt';
  const checkedDates = new Set<string>();
  readTable({
    text,
    required: format === 'legacy' ? LEGACY_COLUMNS : UDIFF_COLUMNS,
    issues,
    visit: (row) => {
      const before = issues.issues.length;
      const contract = readRow(row, issues);
      if (issues.issues.length !== before) return;
      const { sessions } = options;
      if (sessions !== undefined && !checkedDates.has(contract.tradeDate)) {
        checkedDates.add(contract.tradeDate);
        const problem = tradeDateProblem(sessions, contract.tradeDate);
        if (problem !== undefined) issues.add(row.line, row.column(dateColumn), `${dateColumn} ${problem}`);
      }
      if (issues.empty) contracts.push(contract);
    },
  });
  return issues.empty ? ok({ format, contracts }) : err(issues.issues);
}

interface ContractKey {
  readonly instrumentType: BhavcopyInstrumentType;
  readonly strike: Paise | null;
  readonly optionType: BhavcopyOptionType | null;
}

/** Strike and option type of an option; futures carry neither (legacy writes 0 and XX). */
function contractKey(cells: CellReader, names: { strike: string; option: string }, instrumentType: BhavcopyInstrumentType | undefined): ContractKey | undefined {
  if (instrumentType === undefined) return undefined;
  if (instrumentType === 'index_future' || instrumentType === 'stock_future') return { instrumentType, strike: null, optionType: null };
  const strike = cells.price(names.strike);
  // null from a readable cell means empty or 0; an unreadable one has already been reported.
  if (strike === null && Number(cells.text(names.strike) || '0') === 0) cells.fail(names.strike, 'must be a positive strike for an option');
  const option = cells.required(names.option).toUpperCase();
  if (option !== 'CE' && option !== 'PE') {
    if (option !== '') cells.fail(names.option, `"${option}" is not CE or PE`);
    return undefined;
  }
  return { instrumentType, strike, optionType: option };
}

function checkedPrices(cells: CellReader, names: readonly [string, string, string, string]): Pick<BhavcopyContract, 'open' | 'high' | 'low' | 'close'> {
  const [open, high, low, close] = names.map((name) => cells.price(name)) as [Paise | null, Paise | null, Paise | null, Paise | null];
  if (open !== null && high !== null && low !== null && close !== null) {
    if (high < Math.max(open, close, low)) cells.fail(names[1], `${high / 100} is below the day's open, close or low`);
    else if (low > Math.min(open, close)) cells.fail(names[2], `${low / 100} is above the day's open or close`);
  }
  return { open, high, low, close };
}

function legacyContract(row: TableRow, issues: IssueCollector): BhavcopyContract {
  const cells = cellReader(row, issues);
  const typeText = cells.required('INSTRUMENT').toUpperCase();
  const type = LEGACY_TYPES[typeText];
  if (type === undefined && typeText !== '') cells.fail('INSTRUMENT', `"${typeText}" is not FUTIDX, FUTSTK, OPTIDX or OPTSTK`);
  const key = contractKey(cells, { strike: 'STRIKE_PR', option: 'OPTION_TYP' }, type);
  return {
    symbol: cells.required('SYMBOL').toUpperCase(),
    instrumentType: key?.instrumentType ?? 'index_future',
    expiry: cells.legacyDate('EXPIRY_DT'),
    strike: key?.strike ?? null,
    optionType: key?.optionType ?? null,
    ...checkedPrices(cells, ['OPEN', 'HIGH', 'LOW', 'CLOSE']),
    settle: cells.price('SETTLE_PR'),
    openInterest: cells.count('OPEN_INT'),
    contracts: cells.count('CONTRACTS'),
    volume: null,
    lotSize: null,
    tradeDate: cells.legacyDate('TIMESTAMP'),
  };
}

function udiffContract(row: TableRow, issues: IssueCollector): BhavcopyContract {
  const cells = cellReader(row, issues);
  const typeText = cells.required('FinInstrmTp').toUpperCase();
  const type = UDIFF_TYPES[typeText];
  if (type === undefined && typeText !== '') cells.fail('FinInstrmTp', `"${typeText}" is not IDF, STF, IDO or STO`);
  const key = contractKey(cells, { strike: 'StrkPric', option: 'OptnTp' }, type);
  // The actual expiry differs from XpryDt when a holiday moved it; when given, it is the real one.
  const actualExpiry = row.text('FininstrmActlXpryDt');
  const lotSize = cells.count('NewBrdLotQty');
  if (lotSize === 0) cells.fail('NewBrdLotQty', 'must be at least 1');
  return {
    symbol: cells.required('TckrSymb').toUpperCase(),
    instrumentType: key?.instrumentType ?? 'index_future',
    expiry: cells.isoDate(actualExpiry === '' ? 'XpryDt' : 'FininstrmActlXpryDt'),
    strike: key?.strike ?? null,
    optionType: key?.optionType ?? null,
    ...checkedPrices(cells, ['OpnPric', 'HghPric', 'LwPric', 'ClsPric']),
    settle: cells.price('SttlmPric'),
    openInterest: cells.count('OpnIntrst', true),
    contracts: null,
    volume: cells.count('TtlTradgVol', true),
    lotSize,
    tradeDate: cells.isoDate('TradDt'),
  };
}

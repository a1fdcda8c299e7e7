import { describe, expect, it } from 'vitest';
import { detectBhavcopyFormat, parseBhavcopy, type Bhavcopy } from './bhavcopy';
import { formatParseIssue } from './parse-issue';
import type { SessionRules } from './session-check';

const LEGACY_HEADER = 'INSTRUMENT,SYMBOL,EXPIRY_DT,STRIKE_PR,OPTION_TYP,OPEN,HIGH,LOW,CLOSE,SETTLE_PR,CONTRACTS,VAL_INLAKH,OPEN_INT,CHG_IN_OI,TIMESTAMP,';
const UDIFF_HEADER = 'TradDt,BizDt,Sgmt,Src,FinInstrmTp,FinInstrmId,ISIN,TckrSymb,SctySrs,XpryDt,FininstrmActlXpryDt,StrkPric,OptnTp,FinInstrmNm,OpnPric,HghPric,LwPric,ClsPric,LastPric,PrvsClsgPric,UndrlygPric,SttlmPric,OpnIntrst,ChngInOpnIntrst,TtlTradgVol,TtlTrfVal,TtlNbOfTxsExctd,SsnId,NewBrdLotQty,Rmks,Rsvd1,Rsvd2,Rsvd3,Rsvd4';

function parsed(text: string): Bhavcopy {
  const result = parseBhavcopy(text);
  if (!result.ok) throw new Error(result.error.map(formatParseIssue).join('\n'));
  return result.value;
}

function issues(text: string): string[] {
  const result = parseBhavcopy(text);
  return result.ok ? [] : result.error.map(formatParseIssue);
}

describe('parseBhavcopy, legacy format', () => {
  const text = [
    LEGACY_HEADER,
    'FUTIDX,NIFTY,28-MAR-2024,0,XX,22100,22250.5,22050,22200.35,22210.4,150000,1650000.5,12000000,-50000,14-MAR-2024,',
    'OPTIDX,NIFTY,21-Mar-2024,22000,CE,250,300.5,200,280.05,280.05,50000,1100000,3000000,10000,14-MAR-2024,',
    'OPTIDX,NIFTY,21-MAR-2024,25000,PE,0,0,0,0,2750.4,0,0,0,0,14-MAR-2024,',
    'OPTSTK,RELIANCE,28-MAR-2024,2912.5,PE,10,12,9.5,11,11,20,2,4000,0,14-MAR-2024,',
    '',
  ].join('\r\n');

  it('reads futures and options with prices in paise and ISO dates', () => {
    const copy = parsed(text);
    expect(copy.format).toBe('legacy');
    expect(copy.contracts).toHaveLength(4);
    expect(copy.contracts[0]).toEqual({
      symbol: 'NIFTY', instrumentType: 'index_future', expiry: '2024-03-28', strike: null, optionType: null,
      open: 2_210_000, high: 2_225_050, low: 2_205_000, close: 2_220_035, settle: 2_221_040,
      openInterest: 12_000_000, contracts: 150_000, volume: null, lotSize: null, tradeDate: '2024-03-14',
    });
    expect(copy.contracts[1]).toMatchObject({ instrumentType: 'index_option', expiry: '2024-03-21', strike: 2_200_000, optionType: 'CE', close: 28_005 });
    // An untraded contract: no OHLC, but a settlement price.
    expect(copy.contracts[2]).toMatchObject({ open: null, high: null, low: null, close: null, settle: 275_040, contracts: 0 });
    expect(copy.contracts[3]).toMatchObject({ symbol: 'RELIANCE', instrumentType: 'stock_option', strike: 291_250, optionType: 'PE' });
  });

  it('reports bad cells as line:column and returns no contracts', () => {
    const bad = [
      LEGACY_HEADER,
      'FUTIVX,INDIAVIX,28-MAR-2024,0,XX,1,1,1,1,1,1,1,1,1,14-MAR-2024,',
      'OPTIDX,NIFTY,31-FEB-2024,22000,CE,250,300,200,280,280,1,1,1,1,14-MAR-2024,',
      'OPTIDX,NIFTY,28-MAR-2024,22000,XE,250,300,200,280,280,1,1,1,1,14-MAR-2024,',
      'OPTIDX,NIFTY,28-MAR-2024,22000,CE,250,240,200,280,280,1,1,1,1,14-MAR-2024,',
    ].join('\n');
    expect(issues(bad)).toEqual([
      '2:1: INSTRUMENT "FUTIVX" is not FUTIDX, FUTSTK, OPTIDX or OPTSTK',
      '3:14: EXPIRY_DT "31-FEB-2024" is not a date',
      '4:32: OPTION_TYP "XE" is not CE or PE',
      '5:39: HIGH 240 is below the day\'s open, close or low',
    ]);
  });
});

describe('parseBhavcopy, UDiFF format', () => {
  const row = (cells: Record<string, string>): string => UDIFF_HEADER.split(',').map((name) => cells[name] ?? '').join(',');
  const option = {
    TradDt: '2024-07-10', BizDt: '2024-07-10', Sgmt: 'FO', Src: 'NSE', FinInstrmTp: 'IDO', FinInstrmId: '35001', TckrSymb: 'NIFTY',
    XpryDt: '2024-07-11', FininstrmActlXpryDt: '2024-07-11', StrkPric: '24300', OptnTp: 'CE', FinInstrmNm: 'NIFTY24711 24300CE',
    OpnPric: '120.5', HghPric: '150', LwPric: '100', ClsPric: '130.25', LastPric: '130', PrvsClsgPric: '118', UndrlygPric: '24320.5',
    SttlmPric: '130.25', OpnIntrst: '5000000', ChngInOpnIntrst: '-100000', TtlTradgVol: '12345678', TtlTrfVal: '1500.5',
    TtlNbOfTxsExctd: '98765', SsnId: 'F1', NewBrdLotQty: '25',
  };

  it('reads options and futures with the lot size from NewBrdLotQty', () => {
    const future = { ...option, FinInstrmTp: 'STF', TckrSymb: 'TCS', XpryDt: '2024-07-25', FininstrmActlXpryDt: '2024-07-25', StrkPric: '', OptnTp: '', NewBrdLotQty: '175' };
    const copy = parsed([UDIFF_HEADER, row(option), row(future)].join('\n'));
    expect(copy.format).toBe('udiff');
    expect(copy.contracts[0]).toEqual({
      symbol: 'NIFTY', instrumentType: 'index_option', expiry: '2024-07-11', strike: 2_430_000, optionType: 'CE',
      open: 12_050, high: 15_000, low: 10_000, close: 13_025, settle: 13_025,
      openInterest: 5_000_000, contracts: null, volume: 12_345_678, lotSize: 25, tradeDate: '2024-07-10',
    });
    expect(copy.contracts[1]).toMatchObject({ symbol: 'TCS', instrumentType: 'stock_future', strike: null, optionType: null, lotSize: 175 });
  });

  it('uses the actual expiry when a holiday moved it', () => {
    const moved = { ...option, XpryDt: '2024-11-14', FininstrmActlXpryDt: '2024-11-13' };
    expect(parsed([UDIFF_HEADER, row(moved)].join('\n')).contracts[0]?.expiry).toBe('2024-11-13');
  });

  it('points at the bad cell of a UDiFF row', () => {
    const bad = row({ ...option, StrkPric: '24300.125' });
    const column = bad.split(',').slice(0, 11).join(',').length + 2;
    expect(issues([UDIFF_HEADER, bad].join('\n'))).toEqual([`2:${column}: StrkPric "24300.125" is not a whole number of paise (more than 2 decimals)`]);
  });
});

describe('parseBhavcopy with session rules: the trade date must be a day NFO traded, not after today', () => {
  const sessions: SessionRules = { exchange: 'NFO', now: Date.UTC(2025, 0, 15, 6, 0), specialSessions: false };
  const legacyRow = (date: string): string => `FUTIDX,NIFTY,25-JAN-2024,0,XX,22100,22250.5,22050,22200.35,22210.4,1,1,1,1,${date},`;
  const withRules = (text: string, rules: SessionRules = sessions): string[] => {
    const result = parseBhavcopy(text, { sessions: rules });
    return result.ok ? [] : result.error.map(formatParseIssue);
  };

  it('refuses a file dated on a holiday or a weekend once per date, at the date cell of its first row', () => {
    // "FUTIDX,NIFTY,25-JAN-2024,0,XX,22100,22250.5,22050,22200.35,22210.4,1,1,1,1," is 75 characters: TIMESTAMP starts at 76.
    const text = [LEGACY_HEADER, legacyRow('26-JAN-2024'), legacyRow('26-JAN-2024'), legacyRow('27-JAN-2024')].join('\n');
    expect(withRules(text)).toEqual([
      '2:76: TIMESTAMP 2024-01-26 is a holiday on NFO (Republic Day)',
      '4:76: TIMESTAMP 2024-01-27 is a Saturday, when NFO has no session',
    ]);
    expect(withRules([LEGACY_HEADER, legacyRow('25-JAN-2024')].join('\n'))).toEqual([]);
  });

  it('refuses a future trade date, and a special session unless allowed', () => {
    expect(withRules([LEGACY_HEADER, legacyRow('16-JAN-2025')].join('\n'))).toEqual(['2:76: TIMESTAMP 2025-01-16 is in the future (today is 2025-01-15 IST)']);
    const budgetSaturday = [LEGACY_HEADER, legacyRow('20-JAN-2024')].join('\n');
    expect(withRules(budgetSaturday)).toEqual([
      '2:76: TIMESTAMP 2024-01-20 is a Saturday: its only session is the NFO special session 09:15-15:30; special sessions are refused unless allowed',
    ]);
    expect(withRules(budgetSaturday, { ...sessions, specialSessions: true })).toEqual([]);
  });
});

describe('detectBhavcopyFormat', () => {
  it('tells the formats apart and refuses anything else', () => {
    expect(detectBhavcopyFormat(`${LEGACY_HEADER}\n`)).toBe('legacy');
    expect(detectBhavcopyFormat(UDIFF_HEADER)).toBe('udiff');
    expect(detectBhavcopyFormat('datetime,open\n')).toBeUndefined();
    expect(issues('datetime,open\n')[0]).toMatch(/^1:1: not an NSE F&O bhavcopy/);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCandleCsv, type CandleColumns } from './candle-csv';
import { formatParseIssue, type ParseIssue } from './parse-issue';

/** 2024-01-05 09:15 IST, computed independently through UTC (IST = UTC+05:30). */
const NINE_FIFTEEN = Date.UTC(2024, 0, 5, 3, 45);

function parsed(text: string): CandleColumns {
  const result = parseCandleCsv(text);
  if (!result.ok) throw new Error(result.error.map(formatParseIssue).join('\n'));
  return result.value;
}

function issues(text: string): string[] {
  const result = parseCandleCsv(text);
  if (result.ok) throw new Error('expected issues');
  return result.error.map(formatParseIssue);
}

describe('parseCandleCsv', () => {
  it('reads the standard header into columnar paise and epoch ms', () => {
    const candles = parsed('datetime,open,high,low,close,volume\n2024-01-05 09:15:00,21700.05,21710,21690.5,21705.25,1200\n2024-01-05 09:16:00,21705.25,21720,21700,21719.9,800\n');
    expect(candles.length).toBe(2);
    expect([...candles.time]).toEqual([NINE_FIFTEEN, NINE_FIFTEEN + 60_000]);
    expect([...candles.open]).toEqual([2_170_005, 2_170_525]);
    expect([...candles.high]).toEqual([2_171_000, 2_172_000]);
    expect([...candles.low]).toEqual([2_169_050, 2_170_000]);
    expect([...candles.close]).toEqual([2_170_525, 2_171_990]);
    expect([...candles.volume]).toEqual([1200, 800]);
    expect(candles.oi).toBeUndefined();
  });

  it('accepts every timestamp form for the same instant', () => {
    const forms = [
      '2024-01-05 09:15', '2024-01-05 09:15:00', '2024-01-05T09:15:00+05:30', '2024-01-05T09:15:00+0530',
      '2024-01-05 03:45:00.000Z', '2024-01-05T03:45:00Z', '2024-01-04T22:15:00-05:30', String(NINE_FIFTEEN), String(NINE_FIFTEEN / 1000),
    ];
    for (const form of forms) {
      expect(parsed(`datetime,open,high,low,close,volume\n${form},1,1,1,1,0\n`).time[0], form).toBe(NINE_FIFTEEN);
    }
  });

  it('reads separate date and time columns, aliases, any case, CRLF, a BOM and an oi column', () => {
    const candles = parsed('\uFEFFDate,Time,O,H,L,C,Vol,Open_Interest\r\n2024-01-05,09:15,100,101,99,100.5,10,5000\r\n2024-01-05,09:16,100.5,102,100,101,0,5100\r\n');
    expect([...candles.time]).toEqual([NINE_FIFTEEN, NINE_FIFTEEN + 60_000]);
    expect([...(candles.oi ?? [])]).toEqual([5000, 5100]);
    expect(parsed('timestamp,open,high,low,close\n2024-01-05 09:15,1,2,1,2\n').volume[0]).toBe(0);
  });

  it('reports a high below the open at the high cell, as line:column', () => {
    // line 3: "2024-01-05 09:16:00," is 20 characters and "102," 4 more, so high starts at column 25.
    const text = 'datetime,open,high,low,close,volume\n2024-01-05 09:15:00,100,101,99,100,1\n2024-01-05 09:16:00,102,101.5,101,101,1\n';
    expect(issues(text)).toEqual(['3:25: high 101.5 is below open 102']);
  });

  it('names both lines for a duplicate or out-of-order time', () => {
    const text = 'datetime,open,high,low,close\n2024-01-05 09:15,1,1,1,1\n2024-01-05 09:16,1,1,1,1\n2024-01-05 09:16,1,1,1,1\n2024-01-05 09:14,1,1,1,1\n';
    expect(issues(text)).toEqual(['4:1: time 2024-01-05 09:16 repeats line 3', '5:1: time 2024-01-05 09:14 is before line 4 (times must increase)']);
  });

  it('refuses fractions of a paisa, non-positive prices, negative volume and bad dates, and returns no rows', () => {
    const text = [
      'datetime,open,high,low,close,volume',
      '2024-01-05 09:15,100.005,101,99,100,1',
      '2024-01-05 09:16,0,101,99,100,1',
      '2024-01-05 09:17,100,101,99,100,-3',
      '2024-02-30 09:18,100,101,99,100,1',
      '2024-01-05 09:19,abc,101,99,100,1',
    ].join('\n');
    expect(issues(text)).toEqual([
      '2:18: open "100.005" is not a whole number of paise (more than 2 decimals)',
      '3:18: open 0 is not a positive price',
      '4:33: volume -3 is negative',
      '5:1: 2024-02-30 is not a calendar date',
      '6:18: open "abc" is not a decimal number',
    ]);
  });

  it('accepts trailing zeros beyond two decimals (still whole paise)', () => {
    expect(parsed('datetime,open,high,low,close\n2024-01-05 09:15,101.250,101.25,101.2500,101.25\n').open[0]).toBe(10_125);
  });

  it('reports a missing column, a short row and at most 20 issues', () => {
    expect(issues('datetime,open,high,close\n')).toEqual(['1:1: the header has no low column']);
    expect(issues('datetime,open,high,low,close\n2024-01-05 09:15,1,1,1\n')).toEqual(['2:1: the row has 4 fields, the header has 5']);
    const many = ['datetime,open,high,low,close', ...Array.from({ length: 50 }, (_, i) => `2024-01-05 10:${String(i).padStart(2, '0')},x,1,1,1`)].join('\n');
    expect(issues(many)).toHaveLength(20);
    expect(issues('')).toEqual(['1:1: the file is empty (no header)']);
  });

  it('refuses seconds when whole minutes are required', () => {
    const result = parseCandleCsv('datetime,open,high,low,close\n2024-01-05 09:15:30,1,1,1,1\n', { requireWholeMinutes: true });
    expect(result.ok ? [] : result.error.map(formatParseIssue)).toEqual(['2:1: time 2024-01-05 09:15:30 is not on a whole minute (1-minute candles start at :00 seconds)']);
  });

  it('refuses bars at 03:00, on a Sunday, on a holiday and in 2031 when given session rules, and returns no rows', () => {
    const text = [
      'datetime,open,high,low,close,volume',
      '2024-01-05 09:15,100,101,99,100,1',
      '2024-01-06 03:00,100,101,99,100,1',
      '2024-01-07 10:00,100,101,99,100,1',
      '2024-01-26 10:00,100,101,99,100,1',
      '2031-01-06 09:15,100,101,99,100,1',
    ].join('\n');
    const sessions = { exchange: 'NSE', now: Date.UTC(2025, 0, 15, 6, 0), specialSessions: false } as const;
    const result = parseCandleCsv(text, { requireWholeMinutes: true, sessions });
    expect(result.ok ? [] : result.error.map(formatParseIssue)).toEqual([
      '3:1: 2024-01-06 is a Saturday, when NSE has no session',
      '4:1: 2024-01-07 is a Sunday, when NSE has no session',
      '5:1: 2024-01-26 is a holiday on NSE (Republic Day)',
      '6:1: 2031-01-06 09:15 is in the future (now: 2025-01-15 11:30 IST)',
    ]);
    const hours = parseCandleCsv('date,time,open,high,low,close\n2024-01-05,03:00,1,1,1,1\n', { sessions });
    expect(hours.ok ? [] : hours.error.map(formatParseIssue)).toEqual(['2:12: 2024-01-05 03:00 is outside the NSE session 09:15-15:30']);
  });

  it('round-trips any valid candle series written as CSV (property)', () => {
    const candle = fc.record({
      low: fc.integer({ min: 1, max: 5_000_000 }),
      spreadOpen: fc.integer({ min: 0, max: 10_000 }),
      spreadClose: fc.integer({ min: 0, max: 10_000 }),
      spreadHigh: fc.integer({ min: 0, max: 10_000 }),
      volume: fc.integer({ min: 0, max: 1e9 }),
      gapMinutes: fc.integer({ min: 1, max: 3000 }),
    });
    fc.assert(fc.property(fc.array(candle, { minLength: 1, maxLength: 50 }), (rows) => {
      let time = NINE_FIFTEEN;
      const expected = rows.map((row) => {
        time += row.gapMinutes * 60_000;
        const open = row.low + row.spreadOpen;
        const close = row.low + row.spreadClose;
        return { time, open, close, low: row.low, high: Math.max(open, close) + row.spreadHigh, volume: row.volume };
      });
      const rupees = (p: number): string => (p / 100).toFixed(2);
      const text = ['datetime,open,high,low,close,volume', ...expected.map((c) => `${c.time},${rupees(c.open)},${rupees(c.high)},${rupees(c.low)},${rupees(c.close)},${c.volume}`)].join('\n');
      const candles = parsed(text);
      expect([...candles.time]).toEqual(expected.map((c) => c.time));
      expect([...candles.open]).toEqual(expected.map((c) => c.open));
      expect([...candles.high]).toEqual(expected.map((c) => c.high));
      expect([...candles.low]).toEqual(expected.map((c) => c.low));
      expect([...candles.close]).toEqual(expected.map((c) => c.close));
      expect([...candles.volume]).toEqual(expected.map((c) => c.volume));
    }));
  });

  it('never returns rows together with issues (property: one bad cell spoils the file)', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 0, max: 29 }), (count, badIndex) => {
      const bad = badIndex % count;
      const lines = Array.from({ length: count }, (_, i) => `${NINE_FIFTEEN + i * 60_000},${i === bad ? '-1' : '10'},11,9,10`);
      const result = parseCandleCsv(['datetime,open,high,low,close', ...lines].join('\n'));
      expect(result.ok).toBe(false);
      const found: ParseIssue[] = result.ok ? [] : result.error;
      expect(found.map((issue) => issue.line)).toEqual([bad + 2]);
    }));
  });
});

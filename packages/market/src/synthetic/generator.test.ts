import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { generateSyntheticMarket } from './generator';
import { generateSyntheticMarketByYear, joinSyntheticSeries } from './collect';
import { SyntheticInputError } from './inputs';
import { SYNTHETIC_INSTRUMENTS, SYNTHETIC_SOURCE } from './types';
import type { SyntheticAnchor, SyntheticMonth, SyntheticSeries, SyntheticSession } from './types';
import { ANCHORS_2020, HOLIDAYS_2020, istDateOf, istMinuteOf, sessions2020 } from './test-fixtures';

const SESSIONS = sessions2020();
const MONTHS: SyntheticMonth[] = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: ANCHORS_2020 })];

function seriesOf(months: readonly SyntheticMonth[], instrument: (typeof SYNTHETIC_INSTRUMENTS)[number]): SyntheticSeries {
  return joinSyntheticSeries(months, instrument);
}

/** Index of the first difference between two columns, -1 when equal (toEqual is slow on 100k elements). */
function firstDifference(left: ArrayLike<number>, right: ArrayLike<number>): number {
  if (left.length !== right.length) return Math.min(left.length, right.length);
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return index;
  return -1;
}

function expectSameSeries(left: SyntheticSeries, right: SyntheticSeries): void {
  expect(left.close.length).toBeGreaterThan(0);
  for (const column of ['time', 'open', 'high', 'low', 'close'] as const) {
    expect(firstDifference(left[column], right[column]), `${left.instrument} ${column}`).toBe(-1);
  }
}

describe('generateSyntheticMarket: shape of the output', () => {
  it('streams one chunk per month with all six instruments labelled synthetic', () => {
    expect(MONTHS.map((month) => month.month)).toEqual(Array.from({ length: 12 }, (_, index) => `2020-${String(index + 1).padStart(2, '0')}`));
    for (const month of MONTHS) {
      expect(month.series.map((series) => series.instrument)).toEqual([...SYNTHETIC_INSTRUMENTS]);
      for (const series of month.series) expect(series.source).toBe(SYNTHETIC_SOURCE);
    }
    expect(SYNTHETIC_SOURCE).toBe('synthetic');
  });

  it('puts bars only inside the sessions given, one per minute, honouring holidays and special sessions', () => {
    const nifty = seriesOf(MONTHS, 'NIFTY 50');
    const expectedBars = SESSIONS.reduce((total, session) => total + session.closeMinute - session.openMinute, 0);
    expect(nifty.time.length).toBe(expectedBars);
    const sessionByDate = new Map(SESSIONS.map((session) => [session.date, session]));
    const barsByDate = new Map<string, number>();
    const outside: string[] = [];
    for (let bar = 0; bar < nifty.time.length; bar += 1) {
      const date = istDateOf(nifty.time[bar]!);
      const session = sessionByDate.get(date);
      const minute = istMinuteOf(nifty.time[bar]!);
      const ordered = bar === 0 || nifty.time[bar]! > nifty.time[bar - 1]!;
      if (!session || minute < session.openMinute || minute >= session.closeMinute || !ordered) outside.push(`bar ${bar} at ${date} minute ${minute}`);
      barsByDate.set(date, (barsByDate.get(date) ?? 0) + 1);
    }
    expect(outside).toEqual([]);
    for (const holiday of HOLIDAYS_2020) expect(barsByDate.has(holiday)).toBe(false);
    expect(barsByDate.get('2020-11-14')).toBe(60); // muhurat hour, 18:15-19:15
    expect(barsByDate.get('2020-02-01')).toBe(375); // Saturday budget session
    expect(istMinuteOf(nifty.time[0]!)).toBe(555); // 09:15 IST is 03:45 UTC
    expect(new Date(nifty.time[0]!).toISOString()).toBe('2020-01-01T03:45:00.000Z');
  });

  it('keeps every price on the 0.05 tick, positive, with low <= open, close <= high', () => {
    for (const month of MONTHS) {
      for (const series of month.series) {
        for (let bar = 0; bar < series.close.length; bar += 1) {
          const open = series.open[bar]!;
          const high = series.high[bar]!;
          const low = series.low[bar]!;
          const close = series.close[bar]!;
          if (open % 5 !== 0 || high % 5 !== 0 || low % 5 !== 0 || close % 5 !== 0 || low <= 0) {
            throw new Error(`${series.instrument} bar ${bar}: off-tick or non-positive price ${open}/${high}/${low}/${close}`);
          }
          if (low > Math.min(open, close) || high < Math.max(open, close)) {
            throw new Error(`${series.instrument} bar ${bar}: inconsistent OHLC ${open}/${high}/${low}/${close}`);
          }
          if (series.volume[bar] !== 0) throw new Error(`${series.instrument} bar ${bar}: index volume must be 0`);
        }
      }
    }
  });

  it('closes each month exactly on its anchor (rounded to the tick), INDIA VIX included', () => {
    for (const anchor of ANCHORS_2020) {
      if (anchor.close === null) continue;
      const month = MONTHS.find((candidate) => candidate.month === anchor.month)!;
      const series = month.series.find((candidate) => candidate.instrument === anchor.index)!;
      expect(series.close[series.close.length - 1], `${anchor.index} ${anchor.month}`).toBe(Math.round(anchor.close * 20) * 5);
    }
  });

  it('lets a path continue where the anchor is null, and still meets the next anchor', () => {
    const withGap = ANCHORS_2020.map((anchor) => (anchor.month === '2020-05' && anchor.index === 'S&P BSE SENSEX' ? { ...anchor, close: null } : anchor));
    const months = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: withGap, instruments: ['S&P BSE SENSEX'] })];
    const may = months[4]!.series[0]!;
    const june = months[5]!.series[0]!;
    expect(may.close[may.close.length - 1]).not.toBe(3_242_410);
    // It still follows NIFTY's anchored trend in May: within 5% of the real close.
    expect(Math.abs(may.close[may.close.length - 1]! / 3_242_410 - 1)).toBeLessThan(0.05);
    expect(june.close[june.close.length - 1]).toBe(3_491_580);
    expect(june.open[0]).not.toBe(0);
  });

  it('starts NIFTY MID SELECT, which has no anchors, at its fallback level and keeps it plausible', () => {
    const midcap = seriesOf(MONTHS, 'NIFTY MID SELECT');
    expect(midcap.open[0]).toBe(520_000);
    let lowest = Infinity;
    let highest = 0;
    for (const close of midcap.close) {
      lowest = Math.min(lowest, close);
      highest = Math.max(highest, close);
    }
    // 2020 fell about 28% into March and recovered: the midcap follows NIFTY's anchored trend.
    expect(lowest / 520_000).toBeGreaterThan(0.45);
    expect(lowest / 520_000).toBeLessThan(0.85);
    expect(highest / 520_000).toBeLessThan(1.6);
  });
});

describe('generateSyntheticMarket: determinism', () => {
  it('gives identical numbers for the same seed and different ones for another seed', () => {
    const again = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: ANCHORS_2020 })];
    for (const instrument of SYNTHETIC_INSTRUMENTS) expectSameSeries(seriesOf(again, instrument), seriesOf(MONTHS, instrument));
    const other = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'another', anchors: ANCHORS_2020 })];
    // Anchored month-end closes agree by design; the bars in between must not.
    expect(firstDifference(seriesOf(other, 'NIFTY 50').close, seriesOf(MONTHS, 'NIFTY 50').close)).toBeGreaterThanOrEqual(0);
  });

  it('gives each instrument the same numbers whichever other instruments are requested', () => {
    const bankOnly = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: ANCHORS_2020, instruments: ['NIFTY BANK'] })];
    expect(bankOnly[0]!.series.map((series) => series.instrument)).toEqual(['NIFTY BANK']);
    expectSameSeries(seriesOf(bankOnly, 'NIFTY BANK'), seriesOf(MONTHS, 'NIFTY BANK'));
    const vixAndSensex = [...generateSyntheticMarket({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: ANCHORS_2020, instruments: ['INDIA VIX', 'S&P BSE SENSEX'] })];
    expectSameSeries(seriesOf(vixAndSensex, 'INDIA VIX'), seriesOf(MONTHS, 'INDIA VIX'));
    expectSameSeries(seriesOf(vixAndSensex, 'S&P BSE SENSEX'), seriesOf(MONTHS, 'S&P BSE SENSEX'));
  });

  it('streams by year the same numbers as by month', () => {
    const years = [...generateSyntheticMarketByYear({ sessions: SESSIONS, seed: 'vyuha-demo', anchors: ANCHORS_2020 })];
    expect(years.map((year) => year.year)).toEqual(['2020']);
    expectSameSeries(years[0]!.series.find((series) => series.instrument === 'NIFTY 50')!, seriesOf(MONTHS, 'NIFTY 50'));
  });

  it('keeps earlier months unchanged when later sessions are added', () => {
    const firstHalf = SESSIONS.filter((session) => session.date < '2020-07-01');
    const partial = [...generateSyntheticMarket({ sessions: firstHalf, seed: 'vyuha-demo', anchors: ANCHORS_2020 })];
    expectSameSeries(seriesOf(partial, 'NIFTY 50'), seriesOf(MONTHS.slice(0, 6), 'NIFTY 50'));
  });
});

describe('generateSyntheticMarket: invariants for any sessions and seed', () => {
  const sessionList = fc
    .uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 12 })
    .chain((days) =>
      fc.tuple(
        fc.constant([...days].sort((left, right) => left - right)),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1380 }), fc.integer({ min: 1, max: 60 })), { minLength: days.length, maxLength: days.length }),
      ),
    )
    .map(([days, windows]): SyntheticSession[] =>
      days.map((day, index) => {
        const [openMinute, length] = windows[index]!;
        return { date: new Date(Date.UTC(2021, 0, 1) + day * 86_400_000).toISOString().slice(0, 10), openMinute, closeMinute: openMinute + length };
      }),
    );

  it('fills exactly the session minutes with on-tick, consistent bars', () => {
    fc.assert(
      fc.property(sessionList, fc.oneof(fc.integer(), fc.string()), (sessions, seed) => {
        const expected = sessions.reduce((total, session) => total + session.closeMinute - session.openMinute, 0);
        let bars = 0;
        for (const month of generateSyntheticMarket({ sessions, seed, instruments: ['NIFTY 50', 'INDIA VIX'] })) {
          for (const series of month.series) {
            for (let bar = 0; bar < series.close.length; bar += 1) {
              const low = series.low[bar]!;
              const high = series.high[bar]!;
              const onTick = low % 5 === 0 && high % 5 === 0 && low > 0;
              const consistent = low <= Math.min(series.open[bar]!, series.close[bar]!) && high >= Math.max(series.open[bar]!, series.close[bar]!);
              if (!onTick || !consistent) throw new Error(`${series.instrument} bar ${bar}: ${series.open[bar]}/${high}/${low}/${series.close[bar]}`);
            }
          }
          bars += month.series[0]!.close.length;
        }
        expect(bars).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });
});

describe('generateSyntheticMarket: bad input', () => {
  const good: SyntheticSession = { date: '2024-01-02', openMinute: 555, closeMinute: 930 };
  const cases: { name: string; sessions: SyntheticSession[]; anchors?: SyntheticAnchor[]; message: RegExp }[] = [
    { name: 'an impossible date', sessions: [good, { ...good, date: '2024-02-30' }], message: /sessions\[1\]\.date/ },
    { name: 'dates out of order', sessions: [good, { ...good, date: '2024-01-01' }], message: /sessions\[1\]\.date.*increasing/ },
    { name: 'a fractional minute', sessions: [{ ...good, openMinute: 555.5 }], message: /sessions\[0\]\.openMinute/ },
    { name: 'close before open', sessions: [{ ...good, closeMinute: 500 }], message: /sessions\[0\]\.closeMinute/ },
    { name: 'an unknown index', sessions: [good], anchors: [{ month: '2024-01', index: 'NIFTY IT', close: 1 }], message: /anchors\[0\]\.index/ },
    { name: 'a bad month', sessions: [good], anchors: [{ month: '2024-13', index: 'NIFTY 50', close: 1 }], message: /anchors\[0\]\.month/ },
    { name: 'a negative close', sessions: [good], anchors: [{ month: '2024-01', index: 'NIFTY', close: -5 }], message: /anchors\[0\]\.close/ },
  ];
  for (const testCase of cases) {
    it(`refuses ${testCase.name} before producing anything, naming the field`, () => {
      const run = (): unknown => generateSyntheticMarket({ sessions: testCase.sessions, seed: 1, ...(testCase.anchors ? { anchors: testCase.anchors } : {}) });
      expect(run).toThrow(SyntheticInputError);
      expect(run).toThrow(testCase.message);
    });
  }

  it('accepts anchors keyed by trading symbol', () => {
    const [month] = [...generateSyntheticMarket({ sessions: [good], seed: 1, anchors: [{ month: '2024-01', index: 'BANKNIFTY', close: 48_000.02 }], instruments: ['NIFTY BANK'] })];
    const bank = month!.series[0]!;
    expect(bank.close[bank.close.length - 1]).toBe(4_800_000);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCandleCsv, type CandleCsvOptions } from './candle-csv';
import type { SessionRules } from './session-check';

// A line with a quote never takes the fast path, so the same rows with a quoted trailing column
// ("x" instead of x, a column the parser ignores) are read by the general path alone. Both texts
// must give the same candles, or the same issues at the same line:column.

const timestamp = fc.oneof(
  fc.record({ day: fc.integer({ min: 1, max: 31 }), hour: fc.integer({ min: 8, max: 25 }), minute: fc.integer({ min: 0, max: 61 }), second: fc.constantFrom(0, 0, 30, 60) })
    .chain(({ day, hour, minute, second }) => {
      const two = (n: number): string => String(n).padStart(2, '0');
      const date = `2024-02-${two(day)}`;
      return fc.constantFrom(
        `${date} ${two(hour)}:${two(minute)}`, `${date} ${two(hour)}:${two(minute)}:${two(second)}`, `${date}T${two(hour)}:${two(minute)}:${two(second)}`,
        `${date}T${two(hour)}:${two(minute)}:00+05:30`, ` ${date} ${two(hour)}:${two(minute)}`, `${date} ${two(hour)}-${two(minute)}`,
      );
    }),
  fc.integer({ min: 1_706_000_000, max: 1_707_000_000 }).map((seconds) => String(seconds)),
  fc.integer({ min: 1_706_000_000, max: 1_707_000_000 }).map((seconds) => String(seconds * 1000)),
  fc.constantFrom('', 'yesterday', '2024-13-01 09:15'),
);

const price = fc.oneof(
  fc.integer({ min: 1, max: 5_000_000 }).map((paise) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`),
  fc.integer({ min: 0, max: 50_000 }).map(String),
  fc.constantFrom('100.5', '100.50', '100.500', '100.005', '.5', '5.', '-10', '0', ' 100', 'abc', '', '99999999999', '1e3', '21474836.47', '21474836.48'),
);

const count = fc.oneof(fc.nat({ max: 1_000_000 }).map(String), fc.constantFrom('12.0', '12.', '.0', '-3', '1e3', '', '12.5', '1234567890123456'));

const row = fc.record({ stamp: timestamp, open: price, high: price, low: price, close: price, volume: count });

/** Session rules or none; `now` inside the generated month, so some bars are in the future. */
const sessions = fc.option(fc.record({
  exchange: fc.constantFrom<SessionRules['exchange']>('NSE', 'CDS'),
  now: fc.integer({ min: Date.UTC(2024, 1, 1), max: Date.UTC(2024, 2, 2) }),
  specialSessions: fc.boolean(),
}), { nil: undefined });

function parsedBothWays(rows: ReadonlyArray<{ stamp: string; open: string; high: string; low: string; close: string; volume: string }>, requireWholeMinutes: boolean, rules?: SessionRules): [unknown, unknown] {
  const options: CandleCsvOptions = rules === undefined ? { requireWholeMinutes } : { requireWholeMinutes, sessions: rules };
  const header = 'datetime,open,high,low,close,volume,symbol';
  const line = (r: (typeof rows)[number], symbol: string): string => `${r.stamp},${r.open},${r.high},${r.low},${r.close},${r.volume},${symbol}`;
  const plain = [header, ...rows.map((r) => line(r, 'x'))].join('\n');
  const quoted = [header, ...rows.map((r) => line(r, '"x"'))].join('\n');
  return [parseCandleCsv(plain, options), parseCandleCsv(quoted, options)];
}

describe('the fast row path', () => {
  it('gives the same candles or the same issues as the general path, on any rows', () => {
    fc.assert(fc.property(fc.array(row, { maxLength: 30 }), fc.boolean(), sessions, (rows, requireWholeMinutes, rules) => {
      const [fast, general] = parsedBothWays(rows, requireWholeMinutes, rules);
      expect(fast).toEqual(general);
    }), { numRuns: 400 });
  });

  it('gives the same result on well-formed rows of rising minutes (the common file)', () => {
    const rising = fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 10_000, max: 2_000_000 }), fc.nat({ max: 500 })), { minLength: 1, maxLength: 200 });
    // Rupees as vendors write them: 100.5, 100.50, 100.500 and 100 are all the same paise.
    const writtenAs = fc.constantFrom('shortest', 'two', 'three');
    fc.assert(fc.property(rising, writtenAs, (steps, form) => {
      let minute = 0;
      const rupees = (value: number): string => {
        const two = `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
        if (form === 'two') return two;
        return form === 'three' ? `${two}0` : two.replace(/\.?0+$/, '');
      };
      const rows = steps.map(([step, paise, spread]) => {
        minute += step;
        const total = 9 * 60 + 15 + minute;
        const day = 5 + Math.floor(total / 1440);
        const stamp = `2024-02-${String(day).padStart(2, '0')} ${String(Math.floor((total % 1440) / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
        return { stamp, open: rupees(paise), high: rupees(paise + spread), low: rupees(paise - spread), close: rupees(paise), volume: String(spread) };
      });
      const [fast, general] = parsedBothWays(rows, true);
      expect(fast).toEqual(general);
      expect(fast).toMatchObject({ ok: true, value: { length: rows.length } });
    }), { numRuns: 100 });
  });

  it('reads separate date and time cells the same way', () => {
    const text = (symbol: string): string => [
      'date,time,open,high,low,close,symbol', `2024-01-05,09:15,100,101,99,100,${symbol}`, `2024-01-05,09:16:30,100,101,99,100,${symbol}`,
      `2024-01-05,24:00,100,101,99,100,${symbol}`, `2024-01-32,09:17,100,101,99,100,${symbol}`, `2024-01-06,9:17,100,101,99,100,${symbol}`,
    ].join('\n');
    const fast = parseCandleCsv(text('x'));
    expect(fast).toEqual(parseCandleCsv(text('"x"')));
    expect(fast.ok).toBe(false);
  });
});

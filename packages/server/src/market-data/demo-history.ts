// The demo world's market history: seeded synthetic 1-minute candles for the six indices from
// 2020-01-01 to the last finished session, generated month by month and stored with COPY. It runs
// in the background after the server is ready, resumes where a previous run stopped, and never
// doubles a row: each month is committed together with the progress marker that says it is there.

import { addDays, istParts, type IsoDate } from '@vyuha/core';
import {
  generateSyntheticMarket, sessionOf, SYNTHETIC_INSTRUMENTS, SYNTHETIC_SOURCE, tradingDaysBetween,
  type SyntheticAnchor, type SyntheticMonth, type SyntheticSeries, type SyntheticSession,
} from '@vyuha/market';
import type pg from 'pg';
import { writeCandlesInTransaction } from './candle-store';
import { copyLinesInto } from './copy-stream';

/** Where the history starts (the "from 2020-01-01"). */
export const DEMO_HISTORY_START = '2020-01-01' as IsoDate;
/** Changing the seed or the generator's model means new numbers: the marker records both. */
export const DEMO_HISTORY_SEED = 'vyuha-demo-world';
const PROGRESS_KEY = 'demo_history';
const UNIQUE_VIOLATION = '23505';

export interface DemoHistoryOptions {
  readonly pool: pg.Pool;
  /** Last date to fill (inclusive); normally `lastFinishedSession(now)`. */
  readonly through: IsoDate;
  readonly log: (message: string) => void;
  /** Stops between months; what is committed stays. */
  readonly signal?: AbortSignal;
}

export interface DemoHistoryResult {
  readonly monthsStored: number;
  readonly candlesStored: number;
  readonly through: IsoDate | undefined;
}

interface Progress {
  readonly seed: string;
  /** The last month stored whole, and the last date stored (in a month stored only in part). */
  readonly month: string;
  readonly lastDate: IsoDate;
}

/** The last date whose NSE session has closed at `nowEpochMs`. */
export function lastFinishedSession(nowEpochMs: number): IsoDate {
  const { date, minuteOfDay } = istParts(nowEpochMs);
  const session = sessionOf('NSE', date);
  if (session && minuteOfDay >= session.close) return date;
  let day = addDays(date, -1);
  while (!sessionOf('NSE', day)) day = addDays(day, -1);
  return day;
}

/**
 * Generates and stores the synthetic history up to `through`, skipping months already stored.
 * The month of the last stored date, if it was stored only in part, is replaced whole.
 */
export async function loadDemoHistory(options: DemoHistoryOptions): Promise<DemoHistoryResult> {
  const { pool, through, log } = options;
  const progress = await readProgress(pool);
  if (progress && progress.lastDate >= through) return { monthsStored: 0, candlesStored: 0, through: progress.lastDate };
  const sessions = demoSessions(through);
  const [allAnchors, instrumentIds] = await Promise.all([readAnchors(pool), readInstrumentIds(pool)]);
  // A month-end close pins the last session of a month, so it applies only to months stored whole.
  const anchors = allAnchors.filter((anchor) => anchor.month < through.slice(0, 7));
  const firstMonth = progress ? progress.month : '';
  const totalMonths = new Set(sessions.map((s) => s.date.slice(0, 7))).size;
  let monthsStored = 0;
  let candlesStored = 0;
  let monthNumber = 0;
  for (const month of generateSyntheticMarket({ sessions, seed: DEMO_HISTORY_SEED, anchors })) {
    monthNumber += 1;
    // Months before the recorded one are complete; the recorded month may have grown since.
    if (month.month < firstMonth || (month.month === firstMonth && lastDateOf(month) === progress?.lastDate)) continue;
    if (options.signal?.aborted) break;
    candlesStored += await storeMonth(pool, { month, instrumentIds, replace: month.month === firstMonth });
    monthsStored += 1;
    if (monthNumber % 12 === 0 || monthNumber === totalMonths) {
      log(`synthetic market history: ${month.month} stored (${monthNumber} of ${totalMonths} months, ${candlesStored} candles this run)`);
    }
  }
  return { monthsStored, candlesStored, through: (await readProgress(pool))?.lastDate };
}

/** NSE sessions (BSE keeps the same calendar for these years) from the start through `through`. */
function demoSessions(through: IsoDate): SyntheticSession[] {
  return tradingDaysBetween('NSE', DEMO_HISTORY_START, through).flatMap((date) => {
    const session = sessionOf('NSE', date);
    return session ? [{ date, openMinute: session.open, closeMinute: session.close }] : [];
  });
}

function lastDateOf(month: SyntheticMonth): IsoDate | undefined {
  const times = month.series[0]?.time;
  if (!times || times.length === 0) return undefined;
  return istParts(times[times.length - 1] as number).date;
}

async function storeMonth(pool: pg.Pool, input: { month: SyntheticMonth; instrumentIds: ReadonlyMap<string, number>; replace: boolean }): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (input.replace) await deleteSyntheticMonth(client, input.month, input.instrumentIds);
    let stored = 0;
    for (const series of input.month.series) {
      stored += await storeSeries(client, series, requireId(input.instrumentIds, series.instrument));
    }
    const lastDate = lastDateOf(input.month);
    if (lastDate) await writeProgress(client, { seed: DEMO_HISTORY_SEED, month: input.month.month, lastDate });
    await client.query('COMMIT');
    return stored;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Straight COPY into candles is the fast path. If a trader imported real candles for the same
 * minutes, the COPY meets them (unique violation): then the month goes through the staging path,
 * which keeps the imported rows and adds the rest.
 */
async function storeSeries(client: pg.PoolClient, series: SyntheticSeries, instrumentId: number): Promise<number> {
  await client.query('SAVEPOINT synthetic_series');
  try {
    const copied = await copyLinesInto(client,
      'COPY candles (ts, volume, oi, instrument_id, open_paise, high_paise, low_paise, close_paise, source) FROM STDIN',
      seriesLines(series, instrumentId));
    await client.query('RELEASE SAVEPOINT synthetic_series');
    return copied;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT synthetic_series');
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    const written = await writeCandlesInTransaction(client, {
      instrumentId,
      source: SYNTHETIC_SOURCE,
      candles: { length: series.time.length, time: series.time, open: series.open, high: series.high, low: series.low, close: series.close, volume: series.volume },
    });
    return written.inserted;
  }
}

function* seriesLines(series: SyntheticSeries, instrumentId: number): Generator<string> {
  const tail = `\t${SYNTHETIC_SOURCE}\n`;
  for (let i = 0; i < series.time.length; i += 1) {
    const ts = new Date(series.time[i] as number).toISOString();
    yield `${ts}\t${series.volume[i]}\t\\N\t${instrumentId}\t${series.open[i]}\t${series.high[i]}\t${series.low[i]}\t${series.close[i]}${tail}`;
  }
}

async function deleteSyntheticMonth(client: pg.PoolClient, month: SyntheticMonth, instrumentIds: ReadonlyMap<string, number>): Promise<void> {
  const start = `${month.month}-01 00:00:00+05:30`;
  await client.query(
    `DELETE FROM candles WHERE source = 'synthetic' AND instrument_id = ANY($1::int[])
       AND ts >= $2::timestamptz AND ts < $2::timestamptz + interval '1 month'`,
    [[...instrumentIds.values()], start]);
}

/** The last date the demo world's history reaches (undefined when it was never loaded with this seed). */
export async function demoHistoryReaches(pool: pg.Pool): Promise<IsoDate | undefined> {
  return (await readProgress(pool))?.lastDate;
}

async function readProgress(pool: pg.Pool): Promise<Progress | undefined> {
  const { rows } = await pool.query<{ value: Progress }>('SELECT value FROM app_meta WHERE key = $1', [PROGRESS_KEY]);
  const value = rows[0]?.value;
  // Another seed (an older generator) made other numbers: those rows are not ours to extend.
  return value && value.seed === DEMO_HISTORY_SEED ? value : undefined;
}

/**
 * Records that the history now reaches `date`: the simulated market (src/trading/feeds/) stored
 * that whole session, continuing the history from its last close. The next start then finds the
 * history complete instead of replacing the month with the generator's numbers. Only a history
 * made with this seed and reaching the NSE session just before `date` is moved on (true when it
 * was), so a gap is never recorded as stored.
 * @example await recordContinuedSession(pool, isoDate('2026-11-25')) // true when the history reached 2026-11-23
 */
export async function recordContinuedSession(pool: pg.Pool, date: IsoDate): Promise<boolean> {
  let previous = addDays(date, -1);
  while (!sessionOf('NSE', previous)) previous = addDays(previous, -1);
  const progress: Progress = { seed: DEMO_HISTORY_SEED, month: date.slice(0, 7), lastDate: date };
  const { rowCount } = await pool.query(
    `UPDATE app_meta SET value = $2 WHERE key = $1 AND value->>'seed' = $3 AND value->>'lastDate' = $4`,
    [PROGRESS_KEY, JSON.stringify(progress), DEMO_HISTORY_SEED, previous]);
  return rowCount === 1;
}

async function writeProgress(client: pg.PoolClient, progress: Progress): Promise<void> {
  await client.query(
    `INSERT INTO app_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [PROGRESS_KEY, JSON.stringify(progress)]);
}

async function readAnchors(pool: pg.Pool): Promise<SyntheticAnchor[]> {
  const { rows } = await pool.query<{ month: string; index: string; close: string | null }>(
    `SELECT to_char(c.month, 'YYYY-MM') AS month, i.name AS index, c.close
     FROM index_monthly_closes c JOIN instruments i USING (instrument_id) ORDER BY c.month`);
  return rows.map((row) => ({ month: row.month, index: row.index, close: row.close === null ? null : Number(row.close) }));
}

async function readInstrumentIds(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ name: string; instrument_id: number }>(
    `SELECT name, instrument_id FROM instruments WHERE kind = 'index' AND name = ANY($1::text[])`, [[...SYNTHETIC_INSTRUMENTS]]);
  return new Map(rows.map((row) => [row.name, row.instrument_id]));
}

function requireId(ids: ReadonlyMap<string, number>, name: string): number {
  const id = ids.get(name);
  if (id === undefined) throw new Error(`The demo world has no index instrument named "${name}": run vyuha db seed first.`);
  return id;
}

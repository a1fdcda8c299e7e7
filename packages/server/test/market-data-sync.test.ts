// The pure market package cannot read files, so scripts/generate-market-data.mjs compiles the
// CSVs into TypeScript. This test reads the CSVs afresh with the server's own CSV reader and
// fails when someone edits a CSV without regenerating (or edits a generated module by hand).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOLIDAY_RECORDS, INDEX_CONFIGS, SPECIAL_SESSION_RECORDS } from '@vyuha/market';
import { readCsvRecords } from '../src/db/seed/csv';
import { marketDataDir } from '../src/paths';
import { freshDatabase } from './helpers/db';

describe('generated market data matches data/market', () => {
  it('holidays.generated.ts equals holidays.csv', async () => {
    const records = await readCsvRecords(join(marketDataDir, 'holidays.csv'), ['date', 'exchange', 'event']);
    expect(HOLIDAY_RECORDS).toEqual(records.map((r) => ({ date: r.date, exchange: r.exchange, event: r.event })));
    expect(HOLIDAY_RECORDS.length).toBeGreaterThan(700);
  });

  it('special-sessions.generated.ts equals special-sessions.csv', async () => {
    const records = await readCsvRecords(join(marketDataDir, 'special-sessions.csv'), ['date', 'exchange', 'kind', 'start', 'end', 'note']);
    expect(SPECIAL_SESSION_RECORDS).toEqual(records.map((r) => ({
      date: r.date, exchange: r.exchange, kind: r.kind, start: r.start, end: r.end, note: r.note ?? '',
    })));
    expect(SPECIAL_SESSION_RECORDS.length).toBeGreaterThan(40);
  });
});

describe('the demo seed agrees with the market package', () => {
  it('writes index_configs rows equal to INDEX_CONFIGS, in order', async () => {
    const db = await freshDatabase({ seeded: true });
    try {
      const rows = await db.pool.query(
        `SELECT id, exchange, name, signal_key, value, ticker, oc_step, oc_enabled, oc_greeks, benchmark, short_text,
                background, color, entry_l_bracket, entry_u_bracket
         FROM index_configs ORDER BY sort_order`);
      expect(rows.rows).toEqual(INDEX_CONFIGS.map((config) => ({
        id: config.id, exchange: config.exchange, name: config.name, signal_key: config.signalKey, value: config.value,
        ticker: config.ticker, oc_step: config.ocStep, oc_enabled: config.ocEnabled, oc_greeks: config.ocGreeks,
        benchmark: config.benchmark, short_text: config.shortText, background: [...config.background], color: [...config.color],
        entry_l_bracket: config.entry_l_bracket, entry_u_bracket: config.entry_u_bracket,
      })));
    } finally {
      await db.close();
    }
  });
});

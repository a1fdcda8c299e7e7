import { expect, test } from 'vitest';
import { toCsv } from '../parts/csv';
import { istClock, REPORT_CSV_HEADER, reportCsvRows } from './report-csv';
import type { Figures, TradingReport } from './report-data';

const figures = (net: number, charges: number): Figures => ({
  realised_paise: net + charges, charges_paise: String(charges), net_pnl_paise: net, fills: 2, orders: 2, max_drawdown_paise: 0,
  charges: { brokerage: charges, stt: 0, exchange: 0, ipft: 0, sebi: 0, stamp: 0, gst: 0, other: 0 },
});

const account = { user_id: 'u1', user_name: 'Asha, Rao', user_broker_id: null, broker: null, client_id: null };

const REPORT: TradingReport = {
  from: '2026-11-02', to: '2026-11-06', mode: 'PAPER', note_date: '2026-11-03',
  total: figures(123_456, 4_000),
  users: [{ user_id: 'u1', name: 'Asha, Rao', ...figures(123_456, 4_000) }],
  strategies: [{ user_id: 'u1', user_name: 'Asha, Rao', strategy_id: 's1', name: 'EMA 9/21', ...figures(123_456, 4_000) }],
  accounts: [{ ...account, ...figures(123_456, 4_000) }],
  days: [{ date: '2026-11-03', ...account, ...figures(-2_000, 4_000) }],
  note: [{
    fill_id: 'f1', ts: '2026-11-03T04:15:30.000Z', ...account, strategy_name: 'EMA 9/21', instrument: 'NIFTY', exchange: 'NSE', side: 'SELL',
    quantity: 50, price_paise: 2_412_345, value_paise: 120_617_250, realised_paise: 0, charges_paise: 2_000, net_pnl_paise: -2_000,
    charges: { brokerage: 2_000, stt: 0, exchange: 0, ipft: 0, sebi: 0, stamp: 0, gst: 0, other: 0 },
  }],
};

test('one row per table entry, the server figures as rupees with two decimals, a section column first', () => {
  const rows = reportCsvRows(REPORT);
  expect(rows.map((row) => row[0])).toEqual(['total', 'user', 'strategy', 'account', 'day', 'fill']);
  for (const row of rows) expect(row).toHaveLength(REPORT_CSV_HEADER.length);
  const column = (name: string): number => REPORT_CSV_HEADER.indexOf(name);
  expect(rows[0]?.[column('net_pnl')]).toBe('1234.56');
  expect(rows[0]?.[column('charges')]).toBe('40.00');
  expect(rows[3]?.[column('broker')]).toBe('paper');
  const fill = rows[5] ?? [];
  expect([fill[column('time')], fill[column('side')], fill[column('quantity')], fill[column('price')], fill[column('net_pnl')]])
    .toEqual(['09:45:30', 'SELL', 50, '24123.45', '-20.00']);
  // A name with a comma is quoted in the file.
  expect(toCsv(REPORT_CSV_HEADER, rows).split('\r\n')[2]).toContain('"Asha, Rao"');
});

test('istClock is the IST time of day of a UTC timestamp', () => {
  expect(istClock('2026-11-03T18:45:00.000Z')).toBe('00:15:00');
});

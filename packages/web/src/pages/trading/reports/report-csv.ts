// The report as one CSV file (pure; docs/PRODUCT.md section 7: CSV download is made client side): a
// `section` column says which table a row belongs to (total, user, strategy, account, day, fill),
// so one file holds the whole report and a spreadsheet filters it. Amounts are rupees with two
// decimals (paiseToRupeesText), exactly the server's paise; nothing is recomputed here.
import { paiseToRupeesText } from '@vyuha/core';
import { CHARGE_COLUMNS, paise, type Figures, type TradingReport } from './report-data';

export const REPORT_CSV_HEADER: readonly string[] = [
  'section', 'mode', 'from', 'to', 'date', 'time', 'user', 'strategy', 'broker', 'client_id', 'instrument', 'side', 'quantity', 'price',
  'realised', 'charges', ...CHARGE_COLUMNS.map(([key]) => `charges_${key}`), 'net_pnl', 'fills', 'orders', 'max_drawdown',
];

type Cell = string | number;

interface Where {
  readonly date?: string; readonly time?: string; readonly user?: string; readonly strategy?: string; readonly broker?: string | null;
  readonly clientId?: string | null; readonly instrument?: string; readonly side?: string; readonly quantity?: number; readonly price?: number;
}

function rupees(value: number | string): string {
  return paiseToRupeesText(paise(value));
}

function row(section: string, report: TradingReport, line: { where: Where; figures: Omit<Figures, 'fills' | 'orders' | 'max_drawdown_paise'> & Partial<Figures> }): Cell[] {
  const { where, figures } = line;
  return [
    section, report.mode, report.from, report.to, where.date ?? '', where.time ?? '', where.user ?? '', where.strategy ?? '', where.broker ?? '',
    where.clientId ?? '', where.instrument ?? '', where.side ?? '', where.quantity ?? '', where.price === undefined ? '' : rupees(where.price),
    rupees(figures.realised_paise), rupees(figures.charges_paise), ...CHARGE_COLUMNS.map(([key]) => rupees(figures.charges[key])),
    rupees(figures.net_pnl_paise), figures.fills ?? '', figures.orders ?? '',
    figures.max_drawdown_paise === undefined ? '' : rupees(figures.max_drawdown_paise),
  ];
}

/** The IST time of day (HH:mm:ss) of a UTC timestamp. */
export function istClock(ts: string): string {
  return new Date(Date.parse(ts) + 5.5 * 3_600_000).toISOString().slice(11, 19);
}

/**
 * Every table of the report, total first, then users, strategies, accounts, days and the listed day's fills.
 * @example reportCsvRows(report)[0]?.[0] // 'total'
 */
export function reportCsvRows(report: TradingReport): Cell[][] {
  const paper = (broker: string | null): string => broker ?? (report.mode === 'PAPER' ? 'paper' : '');
  return [
    row('total', report, { where: {}, figures: report.total }),
    ...report.users.map((user) => row('user', report, { where: { user: user.name }, figures: user })),
    ...report.strategies.map((strategy) => row('strategy', report, { where: { user: strategy.user_name, strategy: strategy.name }, figures: strategy })),
    ...report.accounts.map((account) => row('account', report, { where: { user: account.user_name, broker: paper(account.broker), clientId: account.client_id }, figures: account })),
    ...report.days.map((day) => row('day', report, { where: { date: day.date, user: day.user_name, broker: paper(day.broker), clientId: day.client_id }, figures: day })),
    ...report.note.map((fill) => row('fill', report, { where: {
      date: report.note_date ?? '', time: istClock(fill.ts), user: fill.user_name, strategy: fill.strategy_name, broker: paper(fill.broker),
      clientId: fill.client_id, instrument: fill.instrument, side: fill.side, quantity: fill.quantity, price: paise(fill.price_paise),
    }, figures: fill })),
  ];
}

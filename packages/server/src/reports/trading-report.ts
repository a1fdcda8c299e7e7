// The trading report of /reports and /report (docs/PRODUCT.md sections 2 and 6): P&L, charges, orders and
// drawdown of some users' PAPER or LIVE runs over an IST date range, per user, per strategy and per
// broker account, plus one day's contract note (every fill of that day with its charges).
//
// Invariants:
// - Only runs of the chosen kind, PAPER or LIVE, are read; BACKTEST and the other research kinds never.
// - A fill's P&L is what it booked: the realised P&L it adds to its position (the engine's
//   `applyFillToPosition`, folded over the run's fills of that instrument from the run's first fill,
//   in the order the OMS recorded them: created_at, as fill-ledger.ts stamps them) less its own
//   charges. Every total is the sum of the P&L of the fills whose IST date is in the range, so the
//   report's total equals the fills' sum by construction; positions still open contribute only
//   their charges until they are closed (no mark-to-market).
// - Max drawdown of a group: the largest fall of its running net P&L from an earlier peak (the
//   running sum starts at 0 on the first day of the range), fill by fill in time order; 0 when it
//   never falls.
// - Orders: orders of those runs placed (created_at, IST date) in the range, whatever their status.
// - Money is integer paise. Charges are broken down by the components the engine stores on each
//   fill (brokerage, STT, exchange transaction, IPFT, SEBI, stamp duty, GST); a key it does not know
//   (older rows) is counted under `other`, so the components always add up to the charges.
import { istDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { applyFillToPosition, FLAT_POSITION } from '@vyuha/engine';
import type { NetPosition } from '@vyuha/engine';
import type pg from 'pg';

export type TradingMode = 'PAPER' | 'LIVE';
export const TRADING_MODES: readonly TradingMode[] = ['PAPER', 'LIVE'];

/** What a report covers. */
export interface ReportScope {
  readonly userIds: readonly string[];
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly mode: TradingMode;
  /** A day in the range whose fills are listed one by one (the contract note). */
  readonly noteDate?: IsoDate;
}

/** The charge components of the report, in the order a contract note lists them. */
export const CHARGE_KEYS = ['brokerage', 'stt', 'exchange', 'ipft', 'sebi', 'stamp', 'gst', 'other'] as const;
export type ChargeKey = (typeof CHARGE_KEYS)[number];
export type ChargeBreakdown = Readonly<Record<ChargeKey, number>>;

/** Stored component name (the engine's, or the short form) to the report's. */
const STORED_COMPONENTS: Readonly<Record<string, ChargeKey>> = {
  brokerage: 'brokerage', stt: 'stt', exchangeTransaction: 'exchange', exchange: 'exchange', investorProtection: 'ipft', ipft: 'ipft',
  sebiFee: 'sebi', sebi: 'sebi', stampDuty: 'stamp', stamp: 'stamp', gst: 'gst',
};

export interface ReportFigures {
  readonly realised_paise: number;
  readonly charges_paise: number;
  /** realised - charges. */
  readonly net_pnl_paise: number;
  readonly fills: number;
  readonly orders: number;
  readonly max_drawdown_paise: number;
  readonly charges: ChargeBreakdown;
}

export interface ReportUserRow extends ReportFigures { readonly user_id: string; readonly name: string }
export interface ReportStrategyRow extends ReportFigures {
  readonly user_id: string; readonly user_name: string; readonly strategy_id: string | null; readonly name: string;
}
export interface ReportAccountRow extends ReportFigures {
  readonly user_id: string; readonly user_name: string; readonly user_broker_id: string | null; readonly broker: string | null;
  readonly client_id: string | null;
}
export interface ReportDayRow extends ReportFigures {
  readonly date: string; readonly user_id: string; readonly user_name: string; readonly user_broker_id: string | null;
  readonly broker: string | null; readonly client_id: string | null;
}

/** One line of a contract note. */
export interface ReportFillLine {
  readonly fill_id: string;
  /** UTC ISO timestamp of the trade. */
  readonly ts: string;
  readonly user_id: string;
  readonly user_name: string;
  readonly user_broker_id: string | null;
  readonly broker: string | null;
  readonly client_id: string | null;
  readonly strategy_name: string;
  readonly instrument: string;
  readonly exchange: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly price_paise: number;
  /** quantity x price. */
  readonly value_paise: number;
  readonly realised_paise: number;
  readonly charges_paise: number;
  readonly net_pnl_paise: number;
  readonly charges: ChargeBreakdown;
}

export interface TradingReport {
  readonly from: string;
  readonly to: string;
  readonly mode: TradingMode;
  readonly total: ReportFigures;
  readonly users: readonly ReportUserRow[];
  readonly strategies: readonly ReportStrategyRow[];
  readonly accounts: readonly ReportAccountRow[];
  readonly days: readonly ReportDayRow[];
  readonly note_date: string | null;
  readonly note: readonly ReportFillLine[];
}

interface FillDbRow {
  fill_id: string; ts_ms: string; run_id: string; instrument_id: number; side: 'BUY' | 'SELL'; quantity: number; price_paise: string;
  charges_paise: Record<string, number>; user_id: string; strategy_id: string | null; strategy_name: string | null;
  user_broker_id: string | null; broker: string | null; client_id: string | null; trading_symbol: string; exchange: string;
}

interface OrderCountRow {
  user_id: string; strategy_id: string | null; run_id: string; user_broker_id: string | null; day: string; orders: number;
}

const ZERO_CHARGES: ChargeBreakdown = Object.fromEntries(CHARGE_KEYS.map((key) => [key, 0])) as Record<ChargeKey, number>;

function breakdownOf(stored: Readonly<Record<string, number>>): { charges: ChargeBreakdown; total: number } {
  const charges: Record<ChargeKey, number> = { ...ZERO_CHARGES };
  let total = 0;
  for (const [name, value] of Object.entries(stored)) {
    const amount = Number(value);
    charges[STORED_COMPONENTS[name] ?? 'other'] += amount;
    total += amount;
  }
  return { charges, total };
}

/** A group's figures as fills and orders are added to it. */
class Accumulator {
  realised = 0;
  charges = 0;
  fills = 0;
  orders = 0;
  private running = 0;
  private peak = 0;
  private drawdown = 0;
  private readonly components: Record<ChargeKey, number> = { ...ZERO_CHARGES };

  addFill(line: { realised: number; chargesTotal: number; charges: ChargeBreakdown }): void {
    this.realised += line.realised;
    this.charges += line.chargesTotal;
    this.fills += 1;
    for (const key of CHARGE_KEYS) this.components[key] += line.charges[key];
    this.running += line.realised - line.chargesTotal;
    this.peak = Math.max(this.peak, this.running);
    this.drawdown = Math.max(this.drawdown, this.peak - this.running);
  }

  figures(): ReportFigures {
    return {
      realised_paise: this.realised, charges_paise: this.charges, net_pnl_paise: this.realised - this.charges, fills: this.fills,
      orders: this.orders, max_drawdown_paise: this.drawdown, charges: { ...this.components },
    };
  }
}

class Groups<Key extends string, Extra> {
  private readonly entries = new Map<Key, { extra: Extra; sums: Accumulator }>();

  at(key: Key, extra: () => Extra): Accumulator {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { extra: extra(), sums: new Accumulator() };
      this.entries.set(key, entry);
    }
    return entry.sums;
  }

  rows(): Array<Extra & ReportFigures> {
    return [...this.entries.values()].map((entry) => ({ ...entry.extra, ...entry.sums.figures() }));
  }
}

/** The day after `date` (IST calendar). */
function nextDay(date: IsoDate): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The fills of the scope's runs up to the end of the range, for runs with a fill inside it, in
 * the order they moved their positions.
 */
async function fillsOf(db: pg.Pool, scope: ReportScope): Promise<FillDbRow[]> {
  const { rows } = await db.query<FillDbRow>(
    `WITH bounds AS (
       SELECT ($2::date::timestamp AT TIME ZONE 'Asia/Kolkata') AS starts, ($3::date::timestamp AT TIME ZONE 'Asia/Kolkata') AS ends
     ), runs AS (
       SELECT r.run_id, r.user_id, r.strategy_id FROM strategy_runs r
       WHERE r.user_id = ANY($1::uuid[]) AND r.kind = $4
         AND EXISTS (SELECT 1 FROM orders o JOIN fills f ON f.order_id = o.order_id, bounds
                     WHERE o.run_id = r.run_id AND f.ts >= bounds.starts AND f.ts < bounds.ends)
     )
     SELECT f.fill_id, (extract(epoch FROM f.ts) * 1000)::bigint::text AS ts_ms, o.run_id, o.instrument_id, o.side, f.quantity,
            f.price_paise::text, f.charges_paise, runs.user_id, coalesce(o.strategy_id, runs.strategy_id) AS strategy_id, s.name AS strategy_name,
            o.user_broker_id, ub.broker, ub.client_id, i.trading_symbol, i.exchange
     FROM runs JOIN orders o ON o.run_id = runs.run_id JOIN fills f ON f.order_id = o.order_id
     JOIN instruments i ON i.instrument_id = o.instrument_id
     LEFT JOIN strategies s ON s.strategy_id = coalesce(o.strategy_id, runs.strategy_id)
     LEFT JOIN user_brokers ub ON ub.user_broker_id = o.user_broker_id
     CROSS JOIN bounds
     WHERE f.ts < bounds.ends
     ORDER BY o.run_id, o.instrument_id, f.created_at, f.fill_id`,
    [scope.userIds, scope.from, nextDay(scope.to), scope.mode]);
  return rows;
}

async function orderCountsOf(db: pg.Pool, scope: ReportScope): Promise<OrderCountRow[]> {
  const { rows } = await db.query<OrderCountRow>(
    `SELECT o.user_id, coalesce(o.strategy_id, r.strategy_id) AS strategy_id, o.run_id, o.user_broker_id,
            to_char(o.created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD') AS day, count(*)::int AS orders
     FROM orders o JOIN strategy_runs r ON r.run_id = o.run_id
     WHERE r.user_id = ANY($1::uuid[]) AND r.kind = $4
       AND o.created_at >= ($2::date::timestamp AT TIME ZONE 'Asia/Kolkata') AND o.created_at < ($3::date::timestamp AT TIME ZONE 'Asia/Kolkata')
     GROUP BY 1, 2, 3, 4, 5`,
    [scope.userIds, scope.from, nextDay(scope.to), scope.mode]);
  return rows;
}

async function namesOf(db: pg.Pool, userIds: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ user_id: string; name: string }>('SELECT user_id, name FROM users WHERE user_id = ANY($1::uuid[])', [userIds]);
  return new Map(rows.map((row) => [row.user_id, row.name]));
}

async function accountsOf(db: pg.Pool, ids: readonly string[]): Promise<Map<string, { broker: string; client_id: string }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ user_broker_id: string; broker: string; client_id: string }>(
    'SELECT user_broker_id, broker, client_id FROM user_brokers WHERE user_broker_id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((row) => [row.user_broker_id, { broker: row.broker, client_id: row.client_id }]));
}

async function strategyNamesOf(db: pg.Pool, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ strategy_id: string; name: string }>('SELECT strategy_id, name FROM strategies WHERE strategy_id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((row) => [row.strategy_id, row.name]));
}

const DELETED_STRATEGY = 'A deleted strategy';

/**
 * The report of `scope`. Every listed user appears in `users`, with zeros when they did not trade.
 * @example (await buildTradingReport(pool, { userIds: [u], from: '2026-11-02', to: '2026-11-06', mode: 'PAPER' })).total.net_pnl_paise
 */
export async function buildTradingReport(db: pg.Pool, scope: ReportScope): Promise<TradingReport> {
  if (scope.from > scope.to) throw new RangeError(`from: ${scope.from} is after to (${scope.to})`);
  const [fills, orderCounts, names] = await Promise.all([fillsOf(db, scope), orderCountsOf(db, scope), namesOf(db, scope.userIds)]);
  const userName = (userId: string): string => names.get(userId) ?? userId;

  const total = new Accumulator();
  const users = new Groups<string, { user_id: string; name: string }>();
  for (const userId of scope.userIds) users.at(userId, () => ({ user_id: userId, name: userName(userId) }));
  const strategies = new Groups<string, { user_id: string; user_name: string; strategy_id: string | null; name: string }>();
  const accounts = new Groups<string, { user_id: string; user_name: string; user_broker_id: string | null; broker: string | null; client_id: string | null }>();
  const days = new Groups<string, Omit<ReportDayRow, keyof ReportFigures>>();
  const strategyGroup = (userId: string, strategyId: string | null, name: string | null) =>
    strategies.at(`${userId}/${strategyId ?? ''}`, () => ({ user_id: userId, user_name: userName(userId), strategy_id: strategyId, name: name ?? DELETED_STRATEGY }));
  const account = (userId: string, where: { user_broker_id: string | null; broker: string | null; client_id: string | null }) =>
    ({ user_id: userId, user_name: userName(userId), user_broker_id: where.user_broker_id, broker: where.broker, client_id: where.client_id });

  // Folded per run and instrument (the query's order), then every group fed in time order.
  const positions = new Map<string, NetPosition>();
  const inRange: Array<{ row: FillDbRow; atMs: number; date: IsoDate; realised: number; chargesTotal: number; charges: ChargeBreakdown }> = [];
  for (const row of fills) {
    const key = `${row.run_id}/${row.instrument_id}`;
    const before = positions.get(key) ?? FLAT_POSITION;
    const { charges, total: chargesTotal } = breakdownOf(row.charges_paise);
    const after = applyFillToPosition(before, { side: row.side, quantity: row.quantity, pricePaise: Number(row.price_paise) });
    positions.set(key, after);
    const atMs = Number(row.ts_ms);
    const date = istDate(atMs);
    if (date < scope.from) continue;
    inRange.push({ row, atMs, date, realised: after.realisedPnlPaise - before.realisedPnlPaise, chargesTotal, charges });
  }
  inRange.sort((a, b) => a.atMs - b.atMs || (a.row.fill_id < b.row.fill_id ? -1 : 1));

  const note: ReportFillLine[] = [];
  for (const fill of inRange) {
    const { row } = fill;
    total.addFill(fill);
    users.at(row.user_id, () => ({ user_id: row.user_id, name: userName(row.user_id) })).addFill(fill);
    strategyGroup(row.user_id, row.strategy_id, row.strategy_name).addFill(fill);
    accounts.at(`${row.user_id}/${row.user_broker_id ?? ''}`, () => account(row.user_id, row)).addFill(fill);
    days.at(`${fill.date}/${row.user_id}/${row.user_broker_id ?? ''}`,
      () => ({ date: fill.date, ...account(row.user_id, row) })).addFill(fill);
    if (scope.noteDate !== undefined && fill.date === scope.noteDate) {
      const price = Number(row.price_paise);
      note.push({
        fill_id: row.fill_id, ts: new Date(fill.atMs).toISOString(), ...account(row.user_id, row),
        strategy_name: row.strategy_name ?? DELETED_STRATEGY, instrument: row.trading_symbol, exchange: row.exchange, side: row.side,
        quantity: row.quantity, price_paise: price, value_paise: price * row.quantity, realised_paise: fill.realised,
        charges_paise: fill.chargesTotal, net_pnl_paise: fill.realised - fill.chargesTotal, charges: fill.charges,
      });
    }
  }

  // Orders: groups without a fill in the range still show the orders they placed.
  const [brokerAccounts, strategyNames] = await Promise.all([
    accountsOf(db, [...new Set(orderCounts.map((row) => row.user_broker_id).filter((id): id is string => id !== null))]),
    strategyNamesOf(db, [...new Set(orderCounts.map((row) => row.strategy_id).filter((id): id is string => id !== null))]),
  ]);
  for (const row of orderCounts) {
    const broker = row.user_broker_id === null ? undefined : brokerAccounts.get(row.user_broker_id);
    const where = account(row.user_id, { user_broker_id: row.user_broker_id, broker: broker?.broker ?? null, client_id: broker?.client_id ?? null });
    total.orders += row.orders;
    users.at(row.user_id, () => ({ user_id: row.user_id, name: userName(row.user_id) })).orders += row.orders;
    strategyGroup(row.user_id, row.strategy_id, row.strategy_id === null ? null : strategyNames.get(row.strategy_id) ?? null).orders += row.orders;
    accounts.at(`${row.user_id}/${row.user_broker_id ?? ''}`, () => where).orders += row.orders;
    days.at(`${row.day}/${row.user_id}/${row.user_broker_id ?? ''}`, () => ({ date: row.day, ...where })).orders += row.orders;
  }

  const byUserThenName = (a: { user_name: string; name?: string }, b: { user_name: string; name?: string }): number =>
    a.user_name.localeCompare(b.user_name) || (a.name ?? '').localeCompare(b.name ?? '');
  return {
    from: scope.from, to: scope.to, mode: scope.mode, total: total.figures(),
    users: users.rows().sort((a, b) => a.name.localeCompare(b.name)),
    strategies: strategies.rows().sort(byUserThenName),
    accounts: accounts.rows().sort((a, b) => a.user_name.localeCompare(b.user_name) || (a.client_id ?? '').localeCompare(b.client_id ?? '')),
    days: days.rows().sort((a, b) => b.date.localeCompare(a.date) || a.user_name.localeCompare(b.user_name) || (a.client_id ?? '').localeCompare(b.client_id ?? '')),
    note_date: scope.noteDate ?? null,
    note,
  };
}

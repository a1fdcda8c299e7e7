// A published strategy's paper record on the marketplace: what its publisher's PAPER runs did
// (never its backtests, never its followers' runs). Figures:
// - trades: round trips, per run and instrument, from a fill that opens a position to the fill
//   that brings it back to flat; a trade's P&L is its sells minus its buys minus every charge.
// - return: the closed trades' P&L over the strategy's capital (its configuration's investment), %.
// - max drawdown: on the equity curve capital + closed P&L, trade by trade in closing order, the
//   largest fall from a peak, % of that peak.
// - win rate: trades with P&L above 0 over all closed trades, %.
// - since: when the first PAPER run started.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type pg from 'pg';

export interface RecordFill {
  readonly runId: string;
  readonly instrumentId: number;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly pricePaise: number;
  readonly chargesPaise: number;
  readonly atMs: number;
}

export interface PaperRecord {
  readonly trades: number;
  /** Percent of capital; null without a capital. */
  readonly returnPct: number | null;
  readonly maxDrawdownPct: number | null;
  /** Null before the first closed trade. */
  readonly winRatePct: number | null;
  readonly pnlPaise: number;
}

/**
 * The record of fills (any order; sorted here by time) against `capitalPaise`.
 * @example paperRecord([buy 10 @ 100, sell 10 @ 110 (no charges)], 10_000).returnPct // 1
 */
export function paperRecord(fills: readonly RecordFill[], capitalPaise: number): PaperRecord {
  const open = new Map<string, { net: number; cash: number }>();
  const closed: number[] = [];
  for (const fill of [...fills].sort((a, b) => a.atMs - b.atMs)) {
    const key = `${fill.runId}:${fill.instrumentId}`;
    const position = open.get(key) ?? { net: 0, cash: 0 };
    const signed = fill.side === 'BUY' ? fill.quantity : -fill.quantity;
    position.net += signed;
    position.cash += -signed * fill.pricePaise - fill.chargesPaise;
    if (position.net === 0) {
      closed.push(position.cash);
      open.delete(key);
    } else {
      open.set(key, position);
    }
  }
  const pnl = closed.reduce((sum, value) => sum + value, 0);
  let equity = capitalPaise;
  let peak = capitalPaise;
  let drawdown = 0;
  for (const trade of closed) {
    equity += trade;
    peak = Math.max(peak, equity);
    if (peak > 0) drawdown = Math.max(drawdown, (peak - equity) / peak);
  }
  const withCapital = capitalPaise > 0;
  return {
    trades: closed.length,
    pnlPaise: pnl,
    returnPct: withCapital ? round2((pnl / capitalPaise) * 100) : null,
    maxDrawdownPct: withCapital ? round2(drawdown * 100) : null,
    winRatePct: closed.length === 0 ? null : round2((closed.filter((trade) => trade > 0).length / closed.length) * 100),
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export interface MarketplaceRecord extends PaperRecord {
  readonly strategyId: string;
  /** ISO time of the first PAPER run; null when it has none. */
  readonly since: string | null;
}

/**
 * The paper records of published strategies (all of them, or those named), from their
 * publishers' PAPER runs.
 * @example await marketplaceRecords(pool, { strategyIds: null }) // [{ strategyId, trades: 12, returnPct: 3.4, ... }]
 */
export async function marketplaceRecords(pool: pg.Pool, request: { readonly strategyIds: readonly string[] | null }): Promise<Result<MarketplaceRecord[], string>> {
  if (request.strategyIds !== null && request.strategyIds.length > 200) return err('strategy_ids: at most 200 at a time');
  const { rows: strategies } = await pool.query<{ strategy_id: string; capital: string | null; since: Date | null }>(
    `SELECT s.strategy_id, s.config ->> 'investment' AS capital,
            (SELECT min(r.started_at) FROM strategy_runs r WHERE r.strategy_id = s.strategy_id AND r.user_id = s.user_id AND r.kind = 'PAPER') AS since
     FROM strategies s WHERE s.published AND ($1::uuid[] IS NULL OR s.strategy_id = ANY($1::uuid[]))`, [request.strategyIds]);
  if (strategies.length === 0) return ok([]);
  const { rows: fills } = await pool.query<{ strategy_id: string; run_id: string; instrument_id: number; side: 'BUY' | 'SELL'; quantity: number; price: string; charges: string; ms: string }>(
    `SELECT r.strategy_id, o.run_id, o.instrument_id, o.side, f.quantity, f.price_paise::text AS price,
            (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(f.charges_paise))::text AS charges, (extract(epoch FROM f.ts) * 1000)::bigint::text AS ms
     FROM strategy_runs r JOIN strategies s ON s.strategy_id = r.strategy_id AND s.user_id = r.user_id
     JOIN orders o ON o.run_id = r.run_id JOIN fills f ON f.order_id = o.order_id
     WHERE r.kind = 'PAPER' AND r.strategy_id = ANY($1::uuid[])`, [strategies.map((row) => row.strategy_id)]);
  const byStrategy = new Map<string, RecordFill[]>();
  for (const row of fills) {
    const list = byStrategy.get(row.strategy_id) ?? [];
    list.push({
      runId: row.run_id, instrumentId: row.instrument_id, side: row.side, quantity: row.quantity, pricePaise: Number(row.price),
      chargesPaise: Number(row.charges), atMs: Number(row.ms),
    });
    byStrategy.set(row.strategy_id, list);
  }
  return ok(strategies.map((row) => ({
    strategyId: row.strategy_id,
    since: row.since === null ? null : row.since.toISOString(),
    ...paperRecord(byStrategy.get(row.strategy_id) ?? [], Number(row.capital ?? 0) || 0),
  })));
}

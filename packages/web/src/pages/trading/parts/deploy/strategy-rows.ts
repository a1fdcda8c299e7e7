// What the /strategies list shows per strategy, folded from the rows its subscription pushes:
// today's P&L and orders and the open positions, from PAPER and LIVE runs only (a BACKTEST run is
// research, never trading; the subscription does not even ask for them, and the fold drops any
// that come anyway). Also the Current/History and Active/All filters (docs/PRODUCT.md section 4).
//
// "Today" of a run: a run on the market (live or the simulated one) trades today's IST date; a
// replay trades stored sessions, so its "today" is the session it is replaying now (its newest
// daily_pnl row) while it is in progress, and it has no today once it has ended.

export interface DailyPnlRow {
  readonly date: string;
  readonly pnl_paise: number;
  readonly orders_count: number;
}

export interface RunRow {
  readonly run_id: string;
  readonly kind: string;
  readonly status: string;
  readonly params: { readonly replay?: { readonly from: string; readonly to: string; readonly speed: number } | null } | null;
  /** Newest first. */
  readonly daily_pnl: readonly DailyPnlRow[];
  readonly positions: ReadonlyArray<{ readonly net_quantity: number }>;
}

export interface TradingFigures {
  /** Paise; undefined when no run traded today. */
  readonly todayPnlPaise: number | undefined;
  readonly ordersToday: number;
  readonly openPositions: number;
  /** The replayed session shown as "today" when a replay is in progress. */
  readonly replayDate: string | undefined;
}

const TRADING_KINDS = new Set(['PAPER', 'LIVE']);

/** The daily_pnl row that is this run's today, if any. */
function todayRowOf(run: RunRow, todayIst: string): DailyPnlRow | undefined {
  if (run.params?.replay != null) return run.status === 'IN PROGRESS' ? run.daily_pnl[0] : undefined;
  return run.daily_pnl.find((row) => row.date === todayIst);
}

/**
 * Today's P&L and orders and the open positions of a strategy's runs.
 * @example tradingFigures([{ kind: 'PAPER', status: 'IN PROGRESS', params: {}, daily_pnl: [{ date: '2026-11-27', pnl_paise: 500, orders_count: 2 }], positions: [] }], '2026-11-27')
 * // { todayPnlPaise: 500, ordersToday: 2, openPositions: 0, replayDate: undefined }
 */
export function tradingFigures(runs: readonly RunRow[], todayIst: string): TradingFigures {
  let pnl: number | undefined;
  let orders = 0;
  let open = 0;
  let replayDate: string | undefined;
  for (const run of runs) {
    if (!TRADING_KINDS.has(run.kind)) continue;
    open += run.positions.filter((position) => position.net_quantity !== 0).length;
    const today = todayRowOf(run, todayIst);
    if (today === undefined) continue;
    pnl = (pnl ?? 0) + Number(today.pnl_paise);
    orders += today.orders_count;
    if (run.params?.replay != null) replayDate = today.date;
  }
  return { todayPnlPaise: pnl, ordersToday: orders, openPositions: open, replayDate };
}

/** Current: everything not yet stopped or archived; History: the stopped and archived. */
export type PeriodFilter = 'current' | 'history';
/** Active: running now; All: every status of the period. */
export type ActiveFilter = 'active' | 'all';

const HISTORY_STATUSES: readonly string[] = ['STOPPED', 'ARCHIVED'];

/**
 * The GraphQL status condition of the two filters together. Active/All narrows the current
 * strategies only: nothing in history runs, so there it has nothing to narrow and is not offered.
 * @example statusCondition('current', 'all') // { _nin: ['STOPPED', 'ARCHIVED'] }
 * @example statusCondition('history', 'active') // { _in: ['STOPPED', 'ARCHIVED'] }
 */
export function statusCondition(period: PeriodFilter, active: ActiveFilter): Record<string, unknown> {
  if (period === 'history') return { _in: [...HISTORY_STATUSES] };
  return active === 'active' ? { _eq: 'ACTIVE' } : { _nin: [...HISTORY_STATUSES] };
}

/** True when a strategy with this status belongs to the filters (statusCondition's rule on one status). */
export function matchesFilters(status: string, period: PeriodFilter, active: ActiveFilter): boolean {
  if (period === 'history') return HISTORY_STATUSES.includes(status);
  return active === 'active' ? status === 'ACTIVE' : !HISTORY_STATUSES.includes(status);
}

// Today's P&L per strategy and in total (pure): the IST date's daily_pnl rows of the user's runs in
// the dashboard's mode, each the run's realised P&L less charges (booked) plus the day's move in
// its open positions' marks (unrealised), as the OMS writes them (pnl = realised + mtm - charges).
// A replay still running trades past dates, so its latest replayed day is listed apart and never
// added to today's total.
import { bookedOf, type DashboardDayRow } from './pnl-buckets';

export interface RunStrategy {
  readonly strategy_id: string;
  readonly name: string;
}

/** A daily_pnl row of today with its run's strategy. */
export interface TodayRow extends DashboardDayRow {
  readonly run: { readonly status: string; readonly strategy: RunStrategy | null } | null;
}

export interface StrategyDay {
  /** The strategy's id, or the run's when the strategy was deleted. */
  readonly key: string;
  readonly strategyId: string | undefined;
  readonly name: string;
  readonly bookedPaise: number;
  readonly unrealisedPaise: number;
  readonly totalPaise: number;
  readonly orders: number;
  /** True while one of its runs is IN PROGRESS. */
  readonly running: boolean;
}

function strategyDay(row: TodayRow): StrategyDay {
  const booked = bookedOf(row);
  const strategy = row.run?.strategy ?? null;
  return {
    key: strategy?.strategy_id ?? `run:${row.run_id}`, strategyId: strategy?.strategy_id, name: strategy?.name ?? 'A deleted strategy',
    bookedPaise: booked.pnlPaise, unrealisedPaise: booked.mtmPaise, totalPaise: booked.pnlPaise + booked.mtmPaise, orders: booked.orders,
    running: row.run?.status === 'IN PROGRESS',
  };
}

/**
 * Today's rows per strategy (runs of one strategy added up), largest move first, and the total.
 * @example todayByStrategy([{ realised 5000, charges 200, mtm -300, strategy S }]).total.totalPaise // 4500
 */
export function todayByStrategy(rows: readonly TodayRow[]): { strategies: StrategyDay[]; total: Omit<StrategyDay, 'key' | 'strategyId' | 'name' | 'running'> } {
  const byKey = new Map<string, StrategyDay>();
  for (const row of rows) {
    const day = strategyDay(row);
    const before = byKey.get(day.key);
    byKey.set(day.key, before === undefined ? day : {
      ...before, bookedPaise: before.bookedPaise + day.bookedPaise, unrealisedPaise: before.unrealisedPaise + day.unrealisedPaise,
      totalPaise: before.totalPaise + day.totalPaise, orders: before.orders + day.orders, running: before.running || day.running,
    });
  }
  const strategies = [...byKey.values()].sort((a, b) => Math.abs(b.totalPaise) - Math.abs(a.totalPaise) || a.name.localeCompare(b.name));
  const total = strategies.reduce((sum, day) => ({
    bookedPaise: sum.bookedPaise + day.bookedPaise, unrealisedPaise: sum.unrealisedPaise + day.unrealisedPaise,
    totalPaise: sum.totalPaise + day.totalPaise, orders: sum.orders + day.orders,
  }), { bookedPaise: 0, unrealisedPaise: 0, totalPaise: 0, orders: 0 });
  return { strategies, total };
}

/** A replay run in progress with its latest replayed day (if it has traded yet). */
export interface RunningReplayRow {
  readonly run_id: string;
  readonly params: unknown;
  readonly strategy: RunStrategy | null;
  readonly daily_pnl: ReadonlyArray<Omit<DashboardDayRow, 'run_id'>>;
}

/** The replay range and speed of a run's params, when it is a replay. */
export function replayOf(params: unknown): { from: string; to: string; speed: number } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const replay = (params as { replay?: unknown }).replay;
  if (typeof replay !== 'object' || replay === null) return undefined;
  const { from, to, speed } = replay as { from?: unknown; to?: unknown; speed?: unknown };
  return typeof from === 'string' && typeof to === 'string' && typeof speed === 'number' ? { from, to, speed } : undefined;
}

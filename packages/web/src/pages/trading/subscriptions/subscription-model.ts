// What /subscriptions computes from its rows, kept pure: the investment total (docs/PRODUCT.md
// section 5), a subscription's sizing in words, the subscription view's figures (docs/PRODUCT.md
// section 3: full_pnl, pnl, full_orders, orders, full_day_pnl, full_day_orders) folded from the
// follower runs' daily_pnl rows, and the edit form's checks.
import { formatRupees } from '@vyuha/core';
import { currentInvestmentPaise } from '../parts/investment';

export interface SubscriptionRow {
  readonly subscription_id: string;
  readonly sizing: string;
  readonly quantity: number;
  readonly investment_amt_paise: number | string;
  readonly investment_history: unknown;
  readonly active: boolean;
  readonly paused: boolean;
  readonly expires_at: string | null;
  readonly created_at: string;
  /** The subscriber's broker account: LIVE trades through it; on PAPER the investment counts towards it. */
  readonly user_broker_id: string | null;
  /** PAPER or LIVE (migration 0025). */
  readonly mode: string;
  readonly strategy: {
    readonly strategy_id: string; readonly name: string; readonly mode: string; readonly status: string; readonly strategy_type: string;
    readonly interval_minutes: number | null; readonly user_id: string;
    readonly algorithm: { readonly algorithm_id: string; readonly name: string; readonly published: boolean; readonly user_id: string } | null;
    readonly instrument: { readonly trading_symbol: string } | null;
  } | null;
}

/**
 * The investment total: active subscriptions whose broker account (when they trade through one)
 * is active (`brokerActive`: the user's accounts by id), each at its latest investment_history
 * entry, else investment_amt.
 * @example investmentTotalPaise([{ active: true, user_broker_id: null, investment_amt_paise: 100, investment_history: [] }], new Map()) // 100
 */
export function investmentTotalPaise(
  rows: ReadonlyArray<Pick<SubscriptionRow, 'active' | 'user_broker_id' | 'investment_amt_paise' | 'investment_history'>>,
  brokerActive: ReadonlyMap<string, boolean>,
): number {
  let total = 0;
  for (const row of rows) {
    if (!row.active || (row.user_broker_id !== null && brokerActive.get(row.user_broker_id) !== true)) continue;
    total += currentInvestmentPaise(row);
  }
  return total;
}

/**
 * The sizing as a subscriber reads it.
 * @example sizingText({ sizing: 'investment', quantity: 1, investment_amt_paise: 50_000_000, investment_history: [] }) // '₹5,00,000.00 all-in'
 */
export function sizingText(row: Pick<SubscriptionRow, 'sizing' | 'quantity' | 'investment_amt_paise' | 'investment_history'>): string {
  if (row.sizing === 'investment') return `${formatRupees(currentInvestmentPaise(row))} all-in`;
  return `${row.quantity} ${row.quantity === 1 ? 'unit or lot' : 'units or lots'}`;
}

export interface DailyRow {
  readonly date: string;
  readonly pnl_paise: number | string;
  readonly orders_count: number;
}

export interface FollowFigures {
  /** P&L of every day (full_pnl), paise. */
  readonly fullPnlPaise: number;
  /** Today's P&L (pnl), paise. */
  readonly pnlPaise: number;
  readonly fullOrders: number;
  readonly orders: number;
  /** Per IST date, newest first (full_day_pnl, full_day_orders); several follower runs of one day are summed. */
  readonly days: ReadonlyArray<{ readonly date: string; readonly pnlPaise: number; readonly orders: number }>;
}

/**
 * The subscription view's figures from its follower runs' daily rows.
 * @example followFigures([{ date: '2026-11-27', pnl_paise: '-500', orders_count: 2 }], '2026-11-27').pnlPaise // -500
 */
export function followFigures(rows: readonly DailyRow[], todayIst: string): FollowFigures {
  const byDate = new Map<string, { pnlPaise: number; orders: number }>();
  for (const row of rows) {
    const day = byDate.get(row.date) ?? { pnlPaise: 0, orders: 0 };
    day.pnlPaise += Number(row.pnl_paise);
    day.orders += row.orders_count;
    byDate.set(row.date, day);
  }
  const days = [...byDate].map(([date, day]) => ({ date, ...day })).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const today = byDate.get(todayIst);
  return {
    fullPnlPaise: days.reduce((sum, day) => sum + day.pnlPaise, 0),
    pnlPaise: today?.pnlPaise ?? 0,
    fullOrders: days.reduce((sum, day) => sum + day.orders, 0),
    orders: today?.orders ?? 0,
    days,
  };
}

export type SizingKind = 'quantity' | 'investment';

/** The sizing fields of the subscribe and edit forms, checked: each problem names its field. */
export function checkSizing(input: { readonly sizing: SizingKind; readonly quantity: number | undefined; readonly investmentPaise: number | undefined }): {
  readonly quantity?: string; readonly investment?: string;
} {
  const issues: { quantity?: string; investment?: string } = {};
  if (input.sizing === 'quantity' && !(input.quantity !== undefined && Number.isInteger(input.quantity) && input.quantity >= 1)) {
    issues.quantity = 'Quantity must be a whole number of at least 1';
  }
  if (input.sizing === 'investment' && !(input.investmentPaise !== undefined && input.investmentPaise > 0)) {
    issues.investment = 'Investment must be above ₹0';
  }
  return issues;
}

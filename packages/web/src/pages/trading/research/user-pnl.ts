// Per-user P&L from the daily P&L table (`daily_pnl`, one row per run and day): one aggregate per
// user over a date range and run kinds, built as one query with an alias per user, so no row cap
// applies. Strategies = the user's strategies with a run of those kinds that has P&L in the range.
import { useMemo } from 'react';
import { useQuery, type CombinedError } from 'urql';

/**
 * The run kinds whose P&L is trading P&L: paper and live. Backtests (and the other research kinds)
 * are never summed into an account's P&L.
 */
export const TRADING_RUN_KINDS = ['PAPER', 'LIVE'] as const;

export interface UserPnl {
  readonly netPnlPaise: number;
  readonly orders: number;
  readonly days: number;
  readonly strategies: number;
}

interface Aggregate {
  readonly aggregate: { readonly count: number; readonly sum?: { readonly pnl_paise: number | string | null; readonly orders_count: number | string | null } | null };
}

/** The query text for `count` users (variables $u0..$u<n-1>). */
export function userPnlQuery(count: number): string {
  const variables = Array.from({ length: count }, (_, index) => `$u${index}: uuid!`).join(', ');
  const fields = Array.from({ length: count }, (_, index) => `
    p${index}: daily_pnl_aggregate(where: { date: { _gte: $from, _lte: $to }, run: { user_id: { _eq: $u${index} }, kind: { _in: $kinds } } }) {
      aggregate { count sum { pnl_paise orders_count } }
    }
    s${index}: strategies_aggregate(where: { user_id: { _eq: $u${index} }, strategy_runs: { kind: { _in: $kinds }, daily_pnl: { date: { _gte: $from, _lte: $to } } } }) {
      aggregate { count }
    }`).join('');
  return `query UserPnl($from: date!, $to: date!, $kinds: [String!]!${count > 0 ? `, ${variables}` : ''}) {${fields || ' __typename'}\n}`;
}

const asNumber = (value: number | string | null | undefined): number => (value === null || value === undefined ? 0 : Number(value));

/** P&L per user id over [from, to] for runs of `kinds`. */
export function useUserPnl(request: { userIds: readonly string[]; from: string; to: string; kinds: readonly string[]; pause?: boolean }):
  { byUser: ReadonlyMap<string, UserPnl> | undefined; fetching: boolean; error: CombinedError | undefined } {
  const { userIds, from, to, kinds } = request;
  const query = useMemo(() => userPnlQuery(userIds.length), [userIds.length]);
  const variables = useMemo(() => ({ from, to, kinds, ...Object.fromEntries(userIds.map((id, index) => [`u${index}`, id])) }), [from, to, kinds, userIds]);
  const [result] = useQuery<Record<string, Aggregate>>({ query, variables, pause: request.pause === true || userIds.length === 0 });
  const byUser = useMemo(() => {
    if (result.data === undefined) return undefined;
    const data = result.data;
    return new Map(userIds.map((id, index): [string, UserPnl] => {
      const pnl = data[`p${index}`]?.aggregate;
      return [id, {
        netPnlPaise: asNumber(pnl?.sum?.pnl_paise), orders: asNumber(pnl?.sum?.orders_count), days: pnl?.count ?? 0,
        strategies: data[`s${index}`]?.aggregate.count ?? 0,
      }];
    }));
  }, [result.data, userIds]);
  return { byUser, fetching: result.fetching, error: result.error };
}

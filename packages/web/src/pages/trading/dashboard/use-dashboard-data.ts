// The dashboard's live data: GraphQL subscriptions (one root field each) over the daily_pnl rows of
// the user's runs of the chosen kind, PAPER or LIVE, never BACKTEST (the filter is on the run's
// kind, so a backtest's daily_pnl rows never reach the page). The server refetches a subscription
// when a table it reads changes, so a paper replay's fills move these figures without a reload.
import type { IsoDate, IsoDateRange } from '@vyuha/core';
import { useMemo } from 'react';
import { useQuery, useSubscription, type CombinedError } from 'urql';
import type { DashboardMode } from '../../../stores/app-store';
import type { DashboardDayRow } from './pnl-buckets';
import type { RunningReplayRow, TodayRow } from './today-pnl';

/** The engine's cap on one select; reaching it means days may be missing. */
export const ROW_LIMIT = 10_000;

const DAY_COLUMNS = 'run_id date pnl_paise realised_paise mtm_paise charges_paise orders_count';

const RANGE_DAYS = `subscription DashboardDays($userId: uuid!, $kind: String!, $from: date!, $to: date!) {
  daily_pnl(
    where: { run: { user_id: { _eq: $userId }, kind: { _eq: $kind } }, date: { _gte: $from, _lte: $to } }
    order_by: [{ date: asc }]
    limit: ${ROW_LIMIT}
  ) { ${DAY_COLUMNS} }
}`;

const TODAY = `subscription DashboardToday($userId: uuid!, $kind: String!, $today: date!) {
  daily_pnl(where: { run: { user_id: { _eq: $userId }, kind: { _eq: $kind } }, date: { _eq: $today } }) {
    ${DAY_COLUMNS}
    run { status strategy { strategy_id name } }
  }
}`;

// Runs in progress that replay past sessions: their latest replayed day.
const RUNNING = `subscription DashboardRunning($userId: uuid!, $kind: String!) {
  strategy_runs(where: { user_id: { _eq: $userId }, kind: { _eq: $kind }, status: { _eq: "IN PROGRESS" } }, order_by: [{ started_at: desc }]) {
    run_id params
    strategy { strategy_id name }
    daily_pnl(order_by: [{ date: desc }], limit: 1) { date pnl_paise realised_paise mtm_paise charges_paise orders_count }
  }
}`;

const PROFILE = `query DashboardProfile($userId: uuid!) {
  users_by_pk(user_id: $userId) { name }
}`;

export interface Followed<T> {
  readonly data: T | undefined;
  readonly error: CombinedError | undefined;
}

export interface DashboardData {
  readonly days: Followed<readonly DashboardDayRow[]>;
  readonly today: Followed<readonly TodayRow[]>;
  readonly running: Followed<readonly RunningReplayRow[]>;
  /** The profile's name (the download file names' prefix). */
  readonly profileName: string;
}

export function useDashboardData(input: { userId: string | undefined; mode: DashboardMode; range: IsoDateRange | undefined; today: IsoDate }): DashboardData {
  const { userId, mode, range, today } = input;
  const signedOut = userId === undefined;
  const [days] = useSubscription<{ daily_pnl: DashboardDayRow[] }>({
    query: RANGE_DAYS,
    variables: { userId: userId ?? '', kind: mode, from: range?.from ?? '', to: range?.to ?? '' },
    pause: signedOut || range === undefined,
  });
  const [todayRows] = useSubscription<{ daily_pnl: TodayRow[] }>({
    query: TODAY, variables: { userId: userId ?? '', kind: mode, today }, pause: signedOut,
  });
  const [running] = useSubscription<{ strategy_runs: RunningReplayRow[] }>({
    query: RUNNING, variables: { userId: userId ?? '', kind: mode }, pause: signedOut,
  });
  const [profile] = useQuery<{ users_by_pk: { name: string } | null }>({ query: PROFILE, variables: { userId: userId ?? '' }, pause: signedOut });
  return useMemo(() => ({
    days: { data: days.data?.daily_pnl, error: days.error },
    today: { data: todayRows.data?.daily_pnl, error: todayRows.error },
    running: { data: running.data?.strategy_runs, error: running.error },
    profileName: profile.data?.users_by_pk?.name ?? '',
  }), [days.data, days.error, todayRows.data, todayRows.error, running.data, running.error, profile.data]);
}

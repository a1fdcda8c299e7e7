// /dashboard (docs/PRODUCT.md section 2): the P&L of the user's LIVE or PAPER strategy runs, never
// backtests, all live through GraphQL subscriptions (dashboard/use-dashboard-data.ts): today's P&L per
// strategy and in total, then for a date range (default the last 90 days ending yesterday) a
// calendar heatmap of profit/loss or orders with docs/PRODUCT.md section 9 bands by day, week or
// month, or a line with zoom and save as image, a CSV of the figures, and a picked period's orders.
// A day's P&L is what its fills booked, realised less charges (dashboard/pnl-buckets.ts says why).
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { IsoDateRange } from '@vyuha/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { allows, entryForPath, PAPER_ONLY_ROLES } from '../../app/menu';
import { useAuthState } from '../../auth/auth-service';
import { istToday } from '../../format/date-ranges';
import { useAppStore, type DashboardMode } from '../../stores/app-store';
import { ModeSwitch, Toolbar, ViewControls, type DashboardView } from './dashboard/DashboardControls';
import { PeriodOrders } from './dashboard/PeriodOrders';
import { PnlCharts, Summary } from './dashboard/PnlCharts';
import { bucketsOf, foldBookedDays, type BookedDay } from './dashboard/pnl-buckets';
import { TodayPanel } from './dashboard/TodayPanel';
import { ROW_LIMIT, useDashboardData } from './dashboard/use-dashboard-data';
import { useDateRange } from './dashboard/use-date-range';
import { QueryState } from './parts/QueryState';
import { useSubject } from './parts/use-subject';

/** What to do next when a range has no trading: only links the role may follow. */
function NothingYet({ role, mode, locked, range }: { readonly role: string | undefined; readonly mode: DashboardMode; readonly locked: boolean; readonly range: IsoDateRange }) {
  const modeWord = mode === 'LIVE' ? 'live' : 'paper';
  return (
    <Paper withBorder p="xl" data-testid="dashboard-empty">
      <Stack gap="xs" align="center">
        <Text fw={600}>No {modeWord} trading from {range.from} to {range.to}</Text>
        {allows(entryForPath('/strategies') ?? { roles: [] }, role) && (
          <Anchor component={Link} to="/strategies">Deploy one of your strategies on paper</Anchor>
        )}
        {allows(entryForPath('/subscriptions') ?? { roles: [] }, role) && (
          <Anchor component={Link} to="/subscriptions">Subscribe to a published strategy to trade its signals</Anchor>
        )}
        {mode === 'LIVE' && !locked && (
          <Button size="xs" variant="light" onClick={() => useAppStore.getState().setDashboardMode('PAPER')}>Show paper trading instead</Button>
        )}
        <Text size="sm" c="dimmed">Or pick a longer date range above.</Text>
      </Stack>
    </Paper>
  );
}

function periodFigures(days: ReadonlyMap<string, BookedDay>, period: IsoDateRange): BookedDay | undefined {
  const buckets = bucketsOf(days, period, 'day').filter((bucket) => bucket.tradingDays > 0);
  if (buckets.length === 0) return undefined;
  return buckets.reduce<BookedDay>((sum, day) => ({
    pnlPaise: sum.pnlPaise + day.pnlPaise, realisedPaise: sum.realisedPaise + day.realisedPaise, chargesPaise: sum.chargesPaise + day.chargesPaise,
    mtmPaise: sum.mtmPaise + day.mtmPaise, orders: sum.orders + day.orders,
  }), { pnlPaise: 0, realisedPaise: 0, chargesPaise: 0, mtmPaise: 0, orders: 0 });
}

export function Component() {
  const { userId, role, actingForUser } = useSubject();
  const signedInUserId = useAuthState((snapshot) => snapshot.context.userId);
  const locked = (PAPER_ONLY_ROLES as readonly string[]).includes(role ?? '');
  const storedMode = useAppStore((state) => state.dashboardMode);
  const mode: DashboardMode = locked ? 'PAPER' : storedMode;
  const today = istToday();
  const { range, controls } = useDateRange(today);
  const [view, setView] = useState<DashboardView>({ chart: 'heatmap', duration: 'day', metric: 'pnl' });
  const [picked, setPicked] = useState<IsoDateRange | undefined>(undefined);
  const data = useDashboardData({ userId, mode, range, today });
  const rows = data.days.data;
  const days = useMemo(() => foldBookedDays(rows ?? []), [rows]);
  const buckets = useMemo(() => (range === undefined ? [] : bucketsOf(days, range, view.duration)), [days, range, view.duration]);
  const linkStrategies = allows(entryForPath('/strategies') ?? { roles: [] }, role);
  const modeWord = mode === 'LIVE' ? 'live' : 'paper';
  return (
    <Stack gap="md">
      <Title order={2}>Dashboard</Title>
      <Toolbar>
        <ModeSwitch mode={mode} locked={locked} saveFor={actingForUser ? undefined : signedInUserId} />
        <ViewControls view={view} onChange={(next) => { setView(next); if (next.duration !== view.duration) setPicked(undefined); }} />
        {controls}
      </Toolbar>
      <TodayPanel today={today} rows={data.today.data} running={data.running.data} linkStrategies={linkStrategies} modeWord={modeWord} />
      {range === undefined ? (
        <Alert color="yellow">Choose a valid date range.</Alert>
      ) : (
        <QueryState fetching={rows === undefined} error={data.days.error} hasData={rows !== undefined} title="Could not follow the P&L">
          {days.size === 0 ? <NothingYet role={role} mode={mode} locked={locked} range={range} /> : (
            <Stack gap="md">
              <Summary days={days} />
              {(rows?.length ?? 0) >= ROW_LIMIT && (
                <Alert color="yellow">Only the first {ROW_LIMIT.toLocaleString('en-IN')} run-days were loaded; choose a shorter range for complete totals.</Alert>
              )}
              <PnlCharts view={view} range={range} days={days} buckets={buckets} selected={picked?.from} onSelect={setPicked}
                profileName={data.profileName} mode={mode} />
              {picked !== undefined && userId !== undefined && (
                <PeriodOrders userId={userId} mode={mode} period={picked} figures={periodFigures(days, picked)} onClose={() => setPicked(undefined)} />
              )}
            </Stack>
          )}
        </QueryState>
      )}
    </Stack>
  );
}

// The sections of the run the detail page shows: a replay's share played (the run row's progress,
// written by the runner about once a second), its error in words when it ended in ERROR, the
// chart with its entries and exits, its orders (fills and charges inside), its open positions
// (unrealised P&L moving with each mark) and closed ones, and equity and drawdown. The run's own subscription feeds the chart's markers and the equity curve.
import { Group, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSubscription } from 'urql';
import { RunStatus } from '../StatusBadge';
import { dateTimeText } from '../time';
import { OrdersTable } from '../trading-tables/OrdersTable';
import { PositionsTable } from '../trading-tables/PositionsTable';
import { Section } from './detail-bits';
import { LazyRunChart, LazyRunEquity } from './lazy-parts';
import { replayOf, speedText } from './detail-model';
import { RUN_SUBSCRIPTION, type DetailRunRow, type DetailStrategyRow, type RunDetailRow } from './detail-queries';
import { RunErrorAlert } from './RunHistory';

/** The run's newest orders shown at first ("Show more" adds as many again): a screen's worth, so the
 * detail's other sections stay in reach and its first render stays light. */
const DETAIL_ORDERS = 20;

function RunLine({ run }: { readonly run: DetailRunRow }) {
  const replay = replayOf(run.params);
  return (
    <Group gap="sm" wrap="wrap" data-testid="detail-run" data-run-id={run.run_id}>
      <Text size="sm" c="dimmed">Showing the {run.kind} run started {dateTimeText(run.started_at)}</Text>
      <RunStatus status={run.status} />
      {replay && <Text size="sm" c="dimmed">replaying {replay.from} to {replay.to} at {speedText(replay.speed)}</Text>}
      {replay && run.status === 'IN PROGRESS' && <Text size="sm" c="dimmed" data-testid="detail-run-progress">{run.progress}% played</Text>}
    </Group>
  );
}

export function RunSections({ strategy, run, userId }: { readonly strategy: DetailStrategyRow; readonly run: DetailRunRow; readonly userId: string }) {
  const [result] = useSubscription<{ strategy_runs_by_pk: RunDetailRow | null }>({ query: RUN_SUBSCRIPTION, variables: { runId: run.run_id } });
  const detail = result.data?.strategy_runs_by_pk ?? undefined;
  const byRun = useMemo(() => ({ run_id: { _eq: run.run_id } }), [run.run_id]);
  return (
    <>
      <RunLine run={run} />
      <RunErrorAlert run={run} />
      {strategy.instrument_id !== null && (
        <Section title="Chart" testId="detail-chart">
          <LazyRunChart key={run.run_id} run={run} detail={detail} instrumentId={strategy.instrument_id} intervalMinutes={strategy.interval_minutes} />
        </Section>
      )}
      <Section title="Orders" testId="detail-orders">
        <OrdersTable key={run.run_id} where={byRun} limit={DETAIL_ORDERS} emptyText="This run has placed no orders yet." />
      </Section>
      <Section title="Open positions" testId="detail-positions">
        <PositionsTable where={byRun} open allowSquareOff showStrategy={false} />
      </Section>
      <Section title="Closed positions" testId="detail-closed-positions">
        <PositionsTable where={byRun} open={false} showStrategy={false} />
      </Section>
      <Section title="Equity and drawdown" testId="detail-equity">
        {detail === undefined ? <Text c="dimmed" size="sm">Loading…</Text> : <LazyRunEquity detail={detail} userId={userId} />}
      </Section>
    </>
  );
}

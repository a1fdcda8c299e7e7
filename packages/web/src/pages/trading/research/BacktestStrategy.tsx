// /backtest/{strategy_id}: one backtest strategy's runs, followed live through a GraphQL
// subscription (progress bars, cancel with a confirmation, status icons and error reasons; a run
// that finishes loads its results without a reload), the results of the focused run, and
// several runs side by side (this strategy's, or the user's other backtests): their equity curves
// on one chart and their metrics in columns. A second tab sweeps the focused run's parameters and
// walks them forward (backtest/sweep/, loaded when the tab is opened).
import { Anchor, Button, Checkbox, Group, Loader, MultiSelect, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { lazyPart } from '../../../app/lazy-part';
import { useReadOnly } from '../../../app/update-mode';
import { formatRupees, formatRupeesAmount, MISSING_VALUE, percent } from '../../../format/format';
import { EquityChart, type ChartLine } from '../backtest/results/EquityChart';
import type { PanelRun } from '../backtest/results/PerformancePanel';
import { comparisonCurve } from '../backtest/results/performance';
import { runView, type RunRecord, type RunView } from '../backtest/results/run-view';
import { useCancelRun } from '../backtest/results/use-cancel-run';
import { ratioText, timestampText } from './display';
import { QueryError } from './query-feedback';
import { dailyCurve, runSummary } from './run-metrics';
import { RunAnalytics } from './RunAnalytics';
import { RunStatus } from './RunStatus';
import { useActingUserId, useActorId } from './use-window-starts';

/** The sweep and walk-forward tab (backtest/sweep/), its own chunk, loaded when the tab is opened. */
const LazySweepSection = lazyPart(() => import('../backtest/sweep/SweepSection').then((module) => module.SweepSection), { placeholderHeight: 320 });

const RUN_FIELDS = 'run_id strategy_id status progress candles error params metrics result started_at finished_at';

const STRATEGY_QUERY = `
  query BacktestStrategy($strategy_id: uuid!) {
    strategies_by_pk(strategy_id: $strategy_id) {
      strategy_id name strategy_type created_at instrument { name }
      strategy_runs(where: { kind: { _eq: "BACKTEST" } }, order_by: [{ started_at: asc }, { run_id: asc }]) { ${RUN_FIELDS} }
    }
  }`;

const STATUS_SUBSCRIPTION = `
  subscription BacktestStrategyStatus($strategy_id: uuid!) {
    strategy_runs(where: { strategy_id: { _eq: $strategy_id }, kind: { _eq: "BACKTEST" } }) { run_id status progress candles error }
  }`;

/** The user's other finished backtests that can join the comparison (newest first): light fields for the picker. */
const OTHER_RUNS_QUERY = `
  query BacktestOtherRuns($user_id: uuid!, $strategy_id: uuid!) {
    strategy_runs(where: { user_id: { _eq: $user_id }, kind: { _eq: "BACKTEST" }, status: { _eq: "COMPLETE" }, strategy_id: { _neq: $strategy_id } },
                  order_by: [{ started_at: desc }], limit: 200) { run_id params strategy { name } }
  }`;

/** The picked runs in full (metrics and the result document with its curves). */
const PICKED_RUNS_QUERY = `
  query BacktestPickedRuns($run_ids: [uuid!]!) {
    strategy_runs(where: { run_id: { _in: $run_ids } }) { ${RUN_FIELDS} }
  }`;

const PROFILE_QUERY = `query BacktestProfile($user_id: uuid!) { users_by_pk(user_id: $user_id) { name } }`;

interface StrategyRow {
  readonly strategy_id: string;
  readonly name: string;
  readonly strategy_type: string;
  readonly created_at: string;
  readonly instrument: { readonly name: string } | null;
  readonly strategy_runs: RunRecord[];
}

type LiveStatus = Pick<RunRecord, 'run_id' | 'status' | 'progress' | 'candles' | 'error'>;

/** Run ids with their statuses, order-independent. */
const statusKey = (runs: ReadonlyArray<{ run_id: string; status: string }> | undefined): string =>
  (runs ?? []).map((run) => `${run.run_id}:${run.status}`).sort().join(',');

const money = (paise: number | undefined): string => (paise === undefined ? MISSING_VALUE : formatRupees(paise));
const pct = (value: number | undefined): string => (value === undefined ? MISSING_VALUE : percent(value));
const compactMoney = (paise: number): string => formatRupees(paise, { compact: true });
const percentAxis = (value: number): string => percent(value);
const rupeesAxis = (value: number): string => formatRupeesAmount(value, { compact: true });

interface RunsTableProps {
  readonly runs: readonly RunRecord[];
  readonly live: ReadonlyMap<string, LiveStatus>;
  readonly focused: string | undefined;
  readonly onFocus: (runId: string) => void;
  readonly compared: ReadonlySet<string>;
  readonly onCompare: (runId: string, on: boolean) => void;
}

function RunsTable({ runs, live, focused, onFocus, compared, onCompare }: RunsTableProps) {
  const readOnly = useReadOnly();
  const { cancel, cancelling } = useCancelRun();
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table highlightOnHover striped withTableBorder fz="sm" data-testid="bt-runs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Compare</Table.Th><Table.Th>Run</Table.Th><Table.Th>Status</Table.Th><Table.Th>Net P&L</Table.Th><Table.Th>Return</Table.Th>
            <Table.Th>Max drawdown</Table.Th><Table.Th>Sharpe</Table.Th><Table.Th>Trades</Table.Th><Table.Th>Charges</Table.Th><Table.Th>Candles</Table.Th><Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => {
            const now = live.get(run.run_id) ?? run;
            const summary = runSummary(run.metrics, run.result);
            const view = runView(run, compactMoney);
            return (
              <Table.Tr key={run.run_id} onClick={() => onFocus(run.run_id)} aria-selected={run.run_id === focused} data-testid={`bt-run-${run.run_id}`}
                style={{ cursor: 'pointer', ...(run.run_id === focused ? { background: 'var(--mantine-primary-color-light)' } : {}) }}>
                <Table.Td onClick={(event) => event.stopPropagation()}>
                  <Checkbox aria-label={`Compare ${view.title}`} checked={compared.has(run.run_id)} disabled={now.status !== 'COMPLETE'}
                    onChange={(event) => onCompare(run.run_id, event.currentTarget.checked)} data-testid={`bt-compare-${run.run_id}`} />
                </Table.Td>
                <Table.Td>{view.title}</Table.Td>
                <Table.Td><RunStatus status={now.status} progress={now.progress} error={now.error ?? run.error} runId={run.run_id} showError /></Table.Td>
                <Table.Td c={summary.netPnlPaise === undefined ? 'dimmed' : summary.netPnlPaise < 0 ? 'red' : 'teal'} style={{ whiteSpace: 'nowrap' }}>{money(summary.netPnlPaise)}</Table.Td>
                <Table.Td>{pct(summary.returnPercent)}</Table.Td>
                <Table.Td>{money(summary.maxDrawdownPaise)}{summary.maxDrawdownPercent === undefined ? '' : ` (${percent(summary.maxDrawdownPercent)})`}</Table.Td>
                <Table.Td>{ratioText(summary.sharpe)}</Table.Td>
                <Table.Td>{summary.trades ?? MISSING_VALUE}</Table.Td>
                <Table.Td>{money(summary.chargesPaise)}</Table.Td>
                <Table.Td>{now.candles.toLocaleString('en-IN')}</Table.Td>
                <Table.Td onClick={(event) => event.stopPropagation()}>
                  {now.status === 'IN PROGRESS' && (
                    <Button size="compact-xs" color="red" variant="light" disabled={readOnly || cancelling} onClick={() => void cancel(run.run_id)} data-testid={`bt-cancel-${run.run_id}`}>
                      Cancel
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface SelectedRun {
  readonly record: RunRecord;
  readonly view: RunView;
}

function panelRun({ record, view }: SelectedRun): PanelRun {
  return { runId: view.runId, title: view.title, investmentPaise: view.investmentPaise ?? 1, from: view.from ?? '', to: view.to ?? '', metrics: record.metrics };
}

/** The selected runs' equity on one chart: return % on the investment, or P&L in rupees. */
function SideBySide({ runs, computeInvestment, profileName }: { readonly runs: readonly SelectedRun[]; readonly computeInvestment: boolean; readonly profileName: string }) {
  const lines: ChartLine[] = useMemo(() => runs.flatMap(({ record, view }) => {
    const curve = dailyCurve(record.result);
    if (curve === undefined || view.investmentPaise === undefined) return [];
    const dates = curve.times.map((time) => new Date(time).toISOString().slice(0, 10));
    return [{ id: view.runId, label: view.title, points: comparisonCurve({ dates, equityPaise: curve.equityPaise }, view.investmentPaise, computeInvestment) }];
  }), [runs, computeInvestment]);
  return (
    <Paper withBorder p="md" data-testid="bt-compare">
      <Stack gap="xs">
        <Title order={4}>{runs.length} runs side by side</Title>
        <EquityChart lines={lines} formatValue={computeInvestment ? percentAxis : rupeesAxis} testId="bt-compare-chart" saveTestId="bt-compare-save-image"
          title={computeInvestment ? 'Return on the investment (daily, %)' : 'P&L (daily, ₹)'} fileBase="backtest-comparison" profileName={profileName} />
        <Text size="xs" c="dimmed">Their metrics are in the columns of the metric table below.</Text>
      </Stack>
    </Paper>
  );
}

/** The runs of one request share a start time: order them as the form lists its cells (range, then interval). */
function inFormOrder(runs: readonly RunRecord[]): RunRecord[] {
  const keyOf = (run: RunRecord): [string, string, number] => {
    const view = runView(run, compactMoney);
    return [run.started_at, view.from ?? '', view.interval ?? 0];
  };
  return [...runs].sort((a, b) => {
    const [startA, fromA, intervalA] = keyOf(a);
    const [startB, fromB, intervalB] = keyOf(b);
    return startA.localeCompare(startB) || fromA.localeCompare(fromB) || intervalA - intervalB;
  });
}

function useProfileName(): string {
  const actor = useActorId();
  const [result] = useQuery<{ users_by_pk: { name: string } | null }>({ query: PROFILE_QUERY, variables: { user_id: actor ?? '' }, pause: actor === undefined });
  return result.data?.users_by_pk?.name ?? '';
}

/** The backtest strategy `strategyId`. */
export function BacktestStrategy({ strategyId }: { readonly strategyId: string }) {
  const [result, refetch] = useQuery<{ strategies_by_pk: StrategyRow | null }>({ query: STRATEGY_QUERY, variables: { strategy_id: strategyId } });
  const [status] = useSubscription<{ strategy_runs: LiveStatus[] }>({ query: STATUS_SUBSCRIPTION, variables: { strategy_id: strategyId } });
  const userId = useActingUserId();
  const [others] = useQuery<{ strategy_runs: Array<Pick<RunRecord, 'run_id' | 'params'> & { strategy: { name: string } | null }> }>({
    query: OTHER_RUNS_QUERY, variables: { user_id: userId ?? '', strategy_id: strategyId }, pause: userId === undefined,
  });
  const profileName = useProfileName();
  const [focused, setFocused] = useState<string | undefined>(undefined);
  const [compared, setCompared] = useState<ReadonlySet<string>>(new Set());
  const [otherIds, setOtherIds] = useState<string[]>([]);
  const [picked] = useQuery<{ strategy_runs: RunRecord[] }>({ query: PICKED_RUNS_QUERY, variables: { run_ids: otherIds }, pause: otherIds.length === 0 });
  const [computeInvestment, setComputeInvestment] = useState(true);
  const [tab, setTab] = useState<'results' | 'sweeps'>('results');
  const live = useMemo(() => new Map((status.data?.strategy_runs ?? []).map((run) => [run.run_id, run])), [status.data]);
  // When the live statuses differ from the loaded rows (a run finished, or a new one), load the rows again.
  const liveKey = statusKey(status.data?.strategy_runs);
  const loadedKey = statusKey(result.data?.strategies_by_pk?.strategy_runs);
  const stale = status.data !== undefined && result.data !== undefined && !result.fetching && liveKey !== loadedKey;
  useEffect(() => {
    if (stale) refetch({ requestPolicy: 'network-only' });
  }, [stale, liveKey, refetch]);
  const onCompare = useCallback((runId: string, on: boolean) => setCompared((before) => {
    const next = new Set(before);
    if (on) next.add(runId);
    else next.delete(runId);
    return next;
  }), []);

  const strategy = result.data?.strategies_by_pk;
  const runs = useMemo(() => inFormOrder(strategy?.strategy_runs ?? []), [strategy]);
  const chosen = runs.find((run) => run.run_id === focused) ?? runs.find((run) => run.status === 'COMPLETE');
  const otherRuns = useMemo(() => others.data?.strategy_runs ?? [], [others.data]);
  const selected: SelectedRun[] = useMemo(() => [
    ...runs.filter((run) => compared.has(run.run_id) && run.status === 'COMPLETE'),
    ...(otherIds.length === 0 ? [] : picked.data?.strategy_runs ?? []).filter((run) => otherIds.includes(run.run_id)),
  ].map((record) => ({ record, view: runView(record, compactMoney) })), [runs, picked.data, compared, otherIds]);
  const comparedPanel = useMemo(() => selected.filter((run) => run.record.run_id !== chosen?.run_id).map(panelRun), [selected, chosen]);
  const chosenView = chosen === undefined ? undefined : runView(chosen, compactMoney);
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/backtest" size="sm">All backtests</Anchor>
      <QueryError error={result.error ?? status.error ?? others.error ?? picked.error} title="Could not load the backtest" />
      {result.fetching && strategy === undefined && <Loader size="sm" aria-label="Loading" />}
      {strategy === null && <Text c="dimmed">No backtest strategy {strategyId} is visible to you.</Text>}
      {strategy && (
        <>
          <Group justify="space-between" align="baseline">
            <Title order={3}>{strategy.name}</Title>
            <Text size="sm" c="dimmed">
              {[strategy.instrument?.name, strategy.strategy_type, `created ${timestampText(strategy.created_at)}`].filter((part) => part !== undefined).join(' · ')}
            </Text>
          </Group>
          {runs.length === 0 ? <Text c="dimmed">This strategy has no backtest runs.</Text> : (
            <RunsTable runs={runs} live={live} focused={chosen?.run_id} onFocus={setFocused} compared={compared} onCompare={onCompare} />
          )}
          <MultiSelect label="Compare with runs of your other backtests" placeholder={otherRuns.length === 0 ? 'No other finished backtests' : 'Pick runs'}
            searchable clearable value={otherIds} onChange={setOtherIds} disabled={otherRuns.length === 0} maw={720} data-testid="bt-compare-other"
            data={otherRuns.map((run) => ({ value: run.run_id, label: `${run.strategy?.name ?? 'Backtest'}: ${runView(run, compactMoney).title}` }))} />
          {selected.length >= 2 && <SideBySide runs={selected} computeInvestment={computeInvestment} profileName={profileName} />}
          {chosen !== undefined && chosenView !== undefined && chosen.status === 'COMPLETE' && (
            <Tabs value={tab} onChange={(value) => setTab(value === 'sweeps' ? 'sweeps' : 'results')}>
              <Tabs.List mb="md">
                <Tabs.Tab value="results" data-testid="bt-tab-results">Results</Tabs.Tab>
                <Tabs.Tab value="sweeps" data-testid="bt-tab-sweeps">Sweep and walk-forward</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="results">
                <RunAnalytics key={chosen.run_id} run={chosenView} metrics={chosen.metrics} result={chosen.result} compared={comparedPanel}
                  computeInvestment={computeInvestment} onComputeInvestment={setComputeInvestment} profileName={profileName} />
              </Tabs.Panel>
              <Tabs.Panel value="sweeps">
                {tab === 'sweeps' && <LazySweepSection key={chosen.run_id} runId={chosen.run_id} params={chosen.params} profileName={profileName} />}
              </Tabs.Panel>
            </Tabs>
          )}
          {chosen !== undefined && chosen.status !== 'COMPLETE' && (
            <Text c="dimmed" data-testid="bt-not-complete">
              {chosen.status === 'IN PROGRESS' ? 'This run is still in progress: its results appear here when it completes.'
                : `This run ended in ${chosen.status}${chosen.error ? `: ${chosen.error}` : ''}. It has no results.`}
            </Text>
          )}
          {chosen === undefined && runs.length > 0 && (
            <Text c="dimmed" data-testid="bt-waiting">
              {runs.some((run) => (live.get(run.run_id) ?? run).status === 'IN PROGRESS') ? 'Results appear here when a run completes.' : 'No run of this backtest completed: there are no results.'}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

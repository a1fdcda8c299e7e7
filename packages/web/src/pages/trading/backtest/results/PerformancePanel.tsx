// The performance metrics panel of docs/PRODUCT.md section 3: accordion panels (expanded by default:
// capital_requirement, correlation, metricTable), the capital requirement list, correlations
// between the selected runs and with the selected benchmarks, the metric table (one column per
// run), P&L on the selected special days, the total investment history, and the
// compute-investment switch (default on; its meaning is in performance.ts).
import { Accordion, Group, MultiSelect, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { addDays, isoDate } from '@vyuha/core';
import type { CapitalRequirement, ReturnSeries } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { formatRupees, MISSING_VALUE } from '../../../../format/format';
import { useWindowStarts } from '../../research/use-window-starts';
import { useErrorToast } from '../../research/query-feedback';
import { comparisonRows } from './metric-table';
import { benchmarkSeries, correlations, dailyCloses, investmentHistory, runSeries, specialDays, type DailyPnlRecord, type RunDays } from './performance';
import { useBenchmarkInstruments, useCandles } from './use-run-details';

/** docs/PRODUCT.md section 9's benchmarks. */
export const BENCHMARKS = ['NIFTY 50', 'NIFTY BANK'] as const;
const DEFAULT_PANELS = ['capital_requirement', 'correlation', 'metricTable'];
const SPECIAL_KINDS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'budget_day', label: 'Budget day' }, { value: 'budget_weekend_session', label: 'Budget weekend session' },
  { value: 'election_results', label: 'Election results' }, { value: 'exit_poll_reaction', label: 'Exit-poll reaction' },
  { value: 'circuit_breaker_halt', label: 'Circuit-breaker halt' }, { value: 'muhurat', label: 'Muhurat' },
  { value: 'special_full_session', label: 'Special session' }, { value: 'special_live_session_dr', label: 'Special live session (DR)' },
];

const DAYS_QUERY = `
  query PerformanceDays($run_ids: [uuid!]!) {
    daily_pnl(where: { run_id: { _in: $run_ids } }, order_by: [{ date: asc }]) { run_id date pnl_paise orders_count }
  }`;

export interface PanelRun {
  readonly runId: string;
  readonly title: string;
  readonly investmentPaise: number;
  readonly from: string;
  readonly to: string;
  readonly metrics: unknown;
}

export interface PerformancePanelProps {
  readonly runs: readonly PanelRun[];
  /** The capital estimate of the focused run, undefined while loading; its title. */
  readonly capital: { readonly title: string; readonly requirement: CapitalRequirement | undefined; readonly problem?: string };
  readonly computeInvestment: boolean;
  readonly onComputeInvestment: (value: boolean) => void;
  /** Charges per date of the focused run (from its fills), for the special days' gross P&L. */
  readonly chargesByDate: ReadonlyMap<string, number>;
}

function useBenchmarkSeries(selected: readonly string[], range: { from: string; to: string } | undefined): ReturnSeries[] {
  const ids = useBenchmarkInstruments(BENCHMARKS);
  const earliest = useWindowStarts()[1440];
  // One close before the range anchors the first day's return.
  const from = range === undefined ? undefined : [addDays(isoDate(range.from), -7), earliest ?? ''].sort().at(-1) as string;
  const request = (name: string) => {
    const instrumentId = ids.data?.get(name);
    return instrumentId === undefined || range === undefined || from === undefined || !selected.includes(name) ? undefined : { instrumentId, interval: 1440, from, to: range.to };
  };
  const nifty = useCandles(request('NIFTY 50'));
  const bank = useCandles(request('NIFTY BANK'));
  useErrorToast(ids.error ?? nifty.error ?? bank.error);
  return useMemo(() => {
    const found: ReturnSeries[] = [];
    for (const [name, candles] of [['NIFTY 50', nifty.data], ['NIFTY BANK', bank.data]] as const) {
      if (candles === undefined || !selected.includes(name)) continue;
      const series = benchmarkSeries(name, dailyCloses(candles));
      if (series !== undefined) found.push(series);
    }
    return found;
  }, [nifty.data, bank.data, selected]);
}

function correlationText(value: number | null | undefined): string {
  return value === null || value === undefined ? MISSING_VALUE : value.toFixed(2);
}

function CorrelationTable({ series, titles }: { readonly series: readonly ReturnSeries[]; readonly titles: ReadonlyMap<string, string> }) {
  const matrix = useMemo(() => correlations(series), [series]);
  if (series.length < 2) return <Text size="sm" c="dimmed">Select another run or a benchmark to correlate with.</Text>;
  const label = (id: string): string => titles.get(id) ?? id;
  return (
    <Table.ScrollContainer minWidth={500}>
      <Table withTableBorder fz="xs" data-testid="bt-correlation">
        <Table.Thead>
          <Table.Tr><Table.Th />{matrix.ids.map((id) => <Table.Th key={id}>{label(id)}</Table.Th>)}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {matrix.ids.map((id, row) => (
            <Table.Tr key={id}>
              <Table.Th>{label(id)}</Table.Th>
              {matrix.matrix[row]?.map((value, column) => <Table.Td key={matrix.ids[column]}>{correlationText(value)}</Table.Td>)}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CapitalList({ capital }: { readonly capital: PerformancePanelProps['capital'] }) {
  if (capital.problem !== undefined) return <Text size="sm" c="dimmed">{capital.problem}</Text>;
  const requirement = capital.requirement;
  if (requirement === undefined) return <Text size="sm" c="dimmed">Estimating from the run's fills…</Text>;
  if (requirement.days.length === 0) return <Text size="sm" c="dimmed">No positions were held: nothing to set aside.</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="bt-capital-max">
        {capital.title}: at most {formatRupees(requirement.maximum)} on {requirement.maximumDate} (an estimate, SPAN-like, not the exchange's margin).
      </Text>
      <Table.ScrollContainer minWidth={300} mah={260}>
        <Table fz="xs" striped data-testid="bt-capital-list">
          <Table.Thead><Table.Tr><Table.Th>Date</Table.Th><Table.Th ta="right">Peak requirement</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {requirement.days.map((day) => <Table.Tr key={day.date}><Table.Td>{day.date}</Table.Td><Table.Td ta="right">{formatRupees(day.peak)}</Table.Td></Table.Tr>)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The panel for the selected runs (the first is the focused run). */
export function PerformancePanel({ runs, capital, computeInvestment, onComputeInvestment, chargesByDate }: PerformancePanelProps) {
  const [expanded, setExpanded] = useState<string[]>(DEFAULT_PANELS);
  const [selectedBenchmarks, setSelectedBenchmarks] = useState<string[]>([...BENCHMARKS]);
  const [selectedSpecialKinds, setSelectedSpecialKinds] = useState<string[]>(SPECIAL_KINDS.map((kind) => kind.value));
  const runIds = useMemo(() => runs.map((run) => run.runId), [runs]);
  const [daysResult] = useQuery<{ daily_pnl: Array<DailyPnlRecord & { run_id: string }> }>({ query: DAYS_QUERY, variables: { run_ids: runIds }, pause: runIds.length === 0 });
  useErrorToast(daysResult.error);
  const withDays: RunDays[] | undefined = useMemo(() => {
    const rows = daysResult.data?.daily_pnl;
    if (rows === undefined) return undefined;
    return runs.map((run) => ({ ...run, days: rows.filter((row) => row.run_id === run.runId) }));
  }, [daysResult.data, runs]);
  const range = runs.length === 0 ? undefined : {
    from: runs.map((run) => run.from).sort()[0] as string,
    to: runs.map((run) => run.to).sort().at(-1) as string,
  };
  const benchmarks = useBenchmarkSeries(selectedBenchmarks, range);
  const series = useMemo(() => [...(withDays ?? []).map((run) => runSeries(run, computeInvestment)), ...benchmarks], [withDays, computeInvestment, benchmarks]);
  const titles = useMemo(() => new Map(runs.map((run) => [run.runId, run.title])), [runs]);
  const rows = comparisonRows(runs.map((run) => ({ runId: run.runId, title: run.title, metrics: run.metrics })), { computeInvestment });
  const focused = withDays?.[0];
  const special = useMemo(() => (focused === undefined ? [] : specialDays(focused, chargesByDate)), [focused, chargesByDate]);
  const shownSpecial = special.filter((day) => day.kinds.some((kind) => selectedSpecialKinds.includes(kind)));
  const history = investmentHistory(runs.map((run) => ({ ...run, days: [] })));
  return (
    <Paper withBorder p="md" data-testid="bt-performance">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Performance metrics</Title>
          <Switch label="Compute returns on the investment" checked={computeInvestment} data-testid="bt-compute-investment"
            onChange={(event) => onComputeInvestment(event.currentTarget.checked)} />
        </Group>
        <Accordion multiple value={expanded} onChange={setExpanded} variant="separated">
          <Accordion.Item value="capital_requirement">
            <Accordion.Control>Capital requirement</Accordion.Control>
            <Accordion.Panel><CapitalList capital={capital} /></Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="correlation">
            <Accordion.Control>Correlation</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <MultiSelect label="Benchmarks (buy and hold)" data={[...BENCHMARKS]} value={selectedBenchmarks} onChange={setSelectedBenchmarks} w={360} size="xs" />
                <Text size="xs" c="dimmed">Pearson correlation of daily returns{computeInvestment ? ' on the investment' : ' (P&L in rupees)'}, on the dates inside both ranges.</Text>
                <CorrelationTable series={series} titles={titles} />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="metricTable">
            <Accordion.Control>Metric table</Accordion.Control>
            <Accordion.Panel>
              <Table.ScrollContainer minWidth={300 + runs.length * 160}>
                <Table striped withTableBorder fz="xs" data-testid="bt-metric-table">
                  <Table.Thead>
                    <Table.Tr><Table.Th>Metric</Table.Th>{runs.map((run) => <Table.Th key={run.runId} data-testid="bt-metric-column">{run.title}</Table.Th>)}</Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row) => (
                      <Table.Tr key={row.key} data-testid={`bt-metric-${row.key}`}>
                        <Table.Td>{row.label}</Table.Td>
                        {row.values.map((value, index) => <Table.Td key={runs[index]?.runId}>{value}</Table.Td>)}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="specialDays">
            <Accordion.Control>Special days</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <MultiSelect label="Kinds of day" data={[...SPECIAL_KINDS]} value={selectedSpecialKinds} onChange={setSelectedSpecialKinds} size="xs" />
                {shownSpecial.length === 0 ? (
                  <Text size="sm" c="dimmed" data-testid="bt-special-days-empty">No selected special day between {focused?.from ?? MISSING_VALUE} and {focused?.to ?? MISSING_VALUE}.</Text>
                ) : (
                  <Table fz="xs" striped data-testid="bt-special-days">
                    <Table.Thead><Table.Tr><Table.Th>Date</Table.Th><Table.Th>Day</Table.Th><Table.Th ta="right">Net P&L</Table.Th><Table.Th ta="right">Orders</Table.Th></Table.Tr></Table.Thead>
                    <Table.Tbody>
                      {shownSpecial.map((day) => (
                        <Table.Tr key={day.date}>
                          <Table.Td>{day.date}</Table.Td><Table.Td>{day.note || day.kind}</Table.Td>
                          <Table.Td ta="right">{day.traded ? formatRupees(day.netPnl) : 'did not trade'}</Table.Td><Table.Td ta="right">{day.orders}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="investmentHistory">
            <Accordion.Control>Investment history</Accordion.Control>
            <Accordion.Panel>
              <Table fz="xs" striped data-testid="bt-investment-history">
                <Table.Thead><Table.Tr><Table.Th>From</Table.Th><Table.Th>Run</Table.Th><Table.Th ta="right">Investment</Table.Th><Table.Th ta="right">Total invested</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {history.map((entry) => (
                    <Table.Tr key={entry.runId}>
                      <Table.Td>{entry.date}</Table.Td><Table.Td>{entry.title}</Table.Td>
                      <Table.Td ta="right">{formatRupees(entry.investmentPaise)}</Table.Td><Table.Td ta="right">{formatRupees(entry.totalPaise)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      </Stack>
    </Paper>
  );
}

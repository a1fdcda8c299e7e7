// /dashboard (docs/PRODUCT.md section 2): P&L of the user's LIVE or PAPER strategy runs (the header's mode;
// demo and backtest are always PAPER, docs/PRODUCT.md section 4) from daily_pnl: a calendar heatmap of
// profit/loss or orders with docs/PRODUCT.md section 9 bands, a date-range preset (default the last 90
// days ending yesterday), CSV download of the heatmap's rows, and a summary.
import { Anchor, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title, Alert } from '@mantine/core';
import { paiseToRupeesText, type IsoDateRange } from '@vyuha/core';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { PAPER_ONLY_ROLES } from '../../app/menu';
import { asIsoDate, DEFAULT_RANGE_PRESET, defaultDateRange, istToday, presetRange, RANGE_PRESETS } from '../../format/date-ranges';
import { downloadFileName, formatRupees } from '../../format/format';
import { useAppStore } from '../../stores/app-store';
import { CalendarHeatmap, HeatmapLegend, type DayValue } from './parts/CalendarHeatmap';
import { toCsv, downloadText } from './parts/csv';
import { foldDays, summarise, type DailyPnlRow } from './parts/daily-rows';
import type { HeatmapMetric } from './parts/heatmap-bands';
import { QueryState } from './parts/QueryState';
import { useSubject } from './parts/use-subject';

/** The engine's cap on one select; reaching it means days may be missing. */
const ROW_LIMIT = 10_000;
const CUSTOM = 'custom';

const DASHBOARD = `query DashboardPnl($userId: uuid!, $kind: String!, $from: date!, $to: date!) {
  daily_pnl(
    where: { run: { user_id: { _eq: $userId }, kind: { _eq: $kind } }, date: { _gte: $from, _lte: $to } }
    order_by: [{ date: asc }]
    limit: ${ROW_LIMIT}
  ) { run_id date pnl_paise orders_count }
  strategy_runs_aggregate(where: { user_id: { _eq: $userId }, kind: { _eq: $kind } }) { aggregate { count } }
  users_by_pk(user_id: $userId) { name }
}`;

interface DashboardData {
  readonly daily_pnl: DailyPnlRow[];
  readonly strategy_runs_aggregate: { readonly aggregate: { readonly count: number } | null };
  readonly users_by_pk: { readonly name: string } | null;
}

function useRange(): { range: IsoDateRange | undefined; controls: ReactNode } {
  const [preset, setPreset] = useState<string>(DEFAULT_RANGE_PRESET);
  const today = istToday();
  const yesterday = defaultDateRange(today).to;
  const [custom, setCustom] = useState<{ from: string; to: string }>(() => defaultDateRange(today));
  const customFrom = asIsoDate(custom.from);
  const customTo = asIsoDate(custom.to);
  const customRange = customFrom !== undefined && customTo !== undefined && customFrom <= customTo && customTo <= yesterday ? { from: customFrom, to: customTo } : undefined;
  const customValid = customRange !== undefined;
  const range = presetRange(preset, today) ?? customRange;
  const controls = (
    <Group align="flex-end" gap="sm">
      <Select
        label="Date range"
        w={180}
        allowDeselect={false}
        value={preset}
        onChange={(value) => setPreset(value ?? DEFAULT_RANGE_PRESET)}
        data={[...RANGE_PRESETS.map(({ key, label }) => ({ value: key, label })), { value: CUSTOM, label: 'Custom range' }]}
      />
      {preset === CUSTOM && (
        <>
          <TextInput type="date" label="From" value={custom.from} max={yesterday} w={170}
            onChange={(event) => setCustom({ ...custom, from: event.currentTarget.value })} />
          <TextInput type="date" label="To" value={custom.to} max={yesterday} w={170}
            error={customValid ? undefined : 'From must not be after To; To at most yesterday'}
            onChange={(event) => setCustom({ ...custom, to: event.currentTarget.value })} />
        </>
      )}
    </Group>
  );
  return { range, controls };
}

function Stat({ label, value, color = 'inherit' }: { readonly label: string; readonly value: string; readonly color?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase">{label}</Text>
      <Text fw={600} size="lg" c={color}>{value}</Text>
    </Paper>
  );
}

function toneOf(paise: number): string {
  return paise > 0 ? 'teal' : paise < 0 ? 'red' : 'inherit';
}

function Summary({ days }: { readonly days: ReadonlyMap<string, DayValue> }) {
  const summary = summarise(days);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <Stat label="Net P&L" value={formatRupees(summary.netPaise)} color={toneOf(summary.netPaise)} />
      <Stat label="Orders" value={summary.orders.toLocaleString('en-IN')} />
      <Stat label="Winning days" value={`${summary.winningDays} of ${summary.tradingDays}`} />
      <Stat label="Best day" value={summary.best ? `${formatRupees(summary.best.pnlPaise, { compact: true })} (${summary.best.date})` : '—'} />
      <Stat label="Worst day" value={summary.worst ? `${formatRupees(summary.worst.pnlPaise, { compact: true })} (${summary.worst.date})` : '—'} />
    </SimpleGrid>
  );
}

function downloadCsv(input: { days: ReadonlyMap<string, DayValue>; profileName: string; mode: string; range: IsoDateRange }): void {
  const rows = [...input.days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, value]) => [date, paiseToRupeesText(value.pnlPaise), value.orders]);
  const base = `${input.mode.toLowerCase()}-pnl-${input.range.from}-to-${input.range.to}`;
  downloadText(downloadFileName({ profileName: input.profileName, base, extension: 'csv', nowMs: Date.now() }), toCsv(['date', 'pnl_rupees', 'orders'], rows));
}

export function Component() {
  const { userId, role } = useSubject();
  const storedMode = useAppStore((state) => state.dashboardMode);
  const mode = (PAPER_ONLY_ROLES as readonly string[]).includes(role ?? '') ? 'PAPER' : storedMode;
  const [metric, setMetric] = useState<HeatmapMetric>('pnl');
  const { range, controls } = useRange();
  const [result] = useQuery<DashboardData>({
    query: DASHBOARD,
    variables: { userId: userId ?? '', kind: mode, from: range?.from ?? '', to: range?.to ?? '' },
    pause: userId === undefined || range === undefined,
  });
  const rows = result.data?.daily_pnl;
  const days = useMemo(() => foldDays(rows ?? []), [rows]);
  const modeWord = mode === 'LIVE' ? 'live' : 'paper';
  const runCount = result.data?.strategy_runs_aggregate.aggregate?.count ?? 0;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Dashboard</Title>
        <Text size="sm" c="dimmed">
          {mode === 'LIVE' ? 'Live' : 'Paper'} trading{result.data ? ` · ${runCount} ${modeWord} ${runCount === 1 ? 'run' : 'runs'} in all` : ''}
        </Text>
      </Group>
      <Group justify="space-between" align="flex-end">
        {controls}
        <SegmentedControl<HeatmapMetric>
          aria-label="Heatmap of profit/loss or orders"
          value={metric}
          onChange={setMetric}
          data={[{ value: 'pnl', label: 'Profit/loss' }, { value: 'orders', label: 'Orders' }]}
        />
      </Group>
      {range === undefined ? (
        <Alert color="yellow">Choose a valid date range.</Alert>
      ) : (
        <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the P&L">
          {days.size === 0 ? (
            <Paper withBorder p="xl">
              <Stack gap="xs" align="center">
                <Text fw={600}>No {modeWord} runs in this range yet</Text>
                <Text size="sm" c="dimmed">{range.from} to {range.to}</Text>
                <Anchor component={Link} to="/strategies">Go to your strategies</Anchor>
              </Stack>
            </Paper>
          ) : (
            <Stack gap="md">
              <Summary days={days} />
              {(rows?.length ?? 0) >= ROW_LIMIT && (
                <Alert color="yellow">Only the first {ROW_LIMIT.toLocaleString('en-IN')} run-days were loaded; choose a shorter range for complete totals.</Alert>
              )}
              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Group justify="space-between">
                    <Text fw={600}>{metric === 'pnl' ? 'Daily profit/loss' : 'Daily orders'} · {range.from} to {range.to}</Text>
                    <Button size="xs" variant="light"
                      onClick={() => downloadCsv({ days, profileName: result.data?.users_by_pk?.name ?? '', mode, range })}>
                      Download CSV
                    </Button>
                  </Group>
                  <CalendarHeatmap from={range.from} to={range.to} days={days} metric={metric} />
                  <HeatmapLegend metric={metric} />
                </Stack>
              </Paper>
            </Stack>
          )}
        </QueryState>
      )}
    </Stack>
  );
}

// The range's figures: the summary, then the heatmap (calendar of days, or week/month cells) or the
// line, with the CSV download of the buckets shown (file name: docs/PRODUCT.md section 9's prefix
// of the profile name's first two letters, then the time).
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { isoDate, type IsoDateRange } from '@vyuha/core';
import { lazyPart } from '../../../app/lazy-part';
import { downloadFileName, formatRupees } from '../../../format/format';
import { CalendarHeatmap, HeatmapLegend } from '../parts/CalendarHeatmap';
import { downloadText, toCsv } from '../parts/csv';
import { summarise } from '../parts/daily-rows';
import { BucketHeatmap } from './BucketHeatmap';
import type { DashboardView } from './DashboardControls';
import { CSV_HEADER, csvRows, type BookedDay, type Bucket } from './pnl-buckets';

/** The line chart (the charting library) loads only when the line is chosen; the heatmap is the default. */
const LazyPnlLine = lazyPart(() => import('./PnlLine').then((module) => module.PnlLine), { placeholderHeight: 320 });

const tone = (paise: number): string => (paise > 0 ? 'teal' : paise < 0 ? 'red' : 'inherit');

function Stat({ label, value, color = 'inherit', testId }: { readonly label: string; readonly value: string; readonly color?: string; readonly testId: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase">{label}</Text>
      <Text fw={600} size="lg" c={color} data-testid={testId}>{value}</Text>
    </Paper>
  );
}

export function Summary({ days }: { readonly days: ReadonlyMap<string, BookedDay> }) {
  const summary = summarise(days);
  let charges = 0;
  for (const day of days.values()) charges += day.chargesPaise;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      <Stat label="Booked P&L" value={formatRupees(summary.netPaise)} color={tone(summary.netPaise)} testId="dashboard-net" />
      <Stat label="Charges" value={formatRupees(charges)} testId="dashboard-charges" />
      <Stat label="Orders" value={summary.orders.toLocaleString('en-IN')} testId="dashboard-orders" />
      <Stat label="Winning days" value={`${summary.winningDays} of ${summary.tradingDays}`} testId="dashboard-winning" />
      <Stat label="Best day" value={summary.best ? `${formatRupees(summary.best.pnlPaise, { compact: true })} (${summary.best.date})` : '—'} testId="dashboard-best" />
      <Stat label="Worst day" value={summary.worst ? `${formatRupees(summary.worst.pnlPaise, { compact: true })} (${summary.worst.date})` : '—'} testId="dashboard-worst" />
    </SimpleGrid>
  );
}

export interface PnlChartsProps {
  readonly view: DashboardView;
  readonly range: IsoDateRange;
  readonly days: ReadonlyMap<string, BookedDay>;
  readonly buckets: readonly Bucket[];
  readonly selected: string | undefined;
  readonly onSelect: (period: IsoDateRange) => void;
  readonly profileName: string;
  readonly mode: string;
}

function downloadCsv(props: PnlChartsProps): void {
  const base = `${props.mode.toLowerCase()}-pnl-by-${props.view.duration}-${props.range.from}-to-${props.range.to}`;
  downloadText(downloadFileName({ profileName: props.profileName, base, extension: 'csv', nowMs: Date.now() }), toCsv(CSV_HEADER, csvRows(props.buckets)));
}

function Heatmap(props: PnlChartsProps) {
  const { view, range, days, buckets, selected, onSelect } = props;
  if (view.duration === 'day') {
    return <CalendarHeatmap from={range.from} to={range.to} days={days} metric={view.metric} selected={selected} onSelect={(date) => onSelect({ from: isoDate(date), to: isoDate(date) })} />;
  }
  return <BucketHeatmap buckets={buckets} duration={view.duration} metric={view.metric} selected={selected} onSelect={(bucket) => onSelect({ from: bucket.from, to: bucket.to })} />;
}

export function PnlCharts(props: PnlChartsProps) {
  const { view, range } = props;
  const what = view.metric === 'orders' ? 'Orders' : 'Booked profit/loss';
  return (
    <Paper withBorder p="md" data-testid={view.chart === 'heatmap' ? 'dashboard-heatmap' : 'dashboard-line'}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{what} by {view.duration} · {range.from} to {range.to}</Text>
          <Button size="xs" variant="light" onClick={() => downloadCsv(props)} data-testid="dashboard-csv">Download CSV</Button>
        </Group>
        {view.chart === 'heatmap' ? (
          <>
            <Heatmap {...props} />
            <HeatmapLegend metric={view.metric} />
            <Text size="xs" c="dimmed">Booked P&L is realised profit/loss less charges. Pick a {view.duration} to see its orders.</Text>
          </>
        ) : (
          <LazyPnlLine buckets={props.buckets} duration={view.duration} metric={view.metric} profileName={props.profileName} mode={props.mode} />
        )}
      </Stack>
    </Paper>
  );
}

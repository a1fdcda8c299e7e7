// A finished walk-forward: the overfitting gap in words, the stitched out-of-sample equity, the
// out-of-sample metrics beside the windows' mean in-sample ones, and every window (its in-sample
// and out-of-sample dates, the parameters chosen, the metric on both sides).
import { Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { formatRupeesAmount } from '../../../../format/format';
import { EquityChart, type ChartLine } from '../results/EquityChart';
import { bindingsText, METRIC_LABELS, METRIC_ORDER, metricText } from './sweep-view';
import type { WalkForwardSummary, WalkForwardWindowRow } from './walk-forward-view';
import { equityPoints, meanInSample, meanText, metricGapText, overfittingText } from './walk-forward-view';

const compactRupees = (value: number): string => formatRupeesAmount(value, { compact: true });

function WindowsTable({ rows, summary, parameters }: { readonly rows: readonly WalkForwardWindowRow[]; readonly summary: WalkForwardSummary; readonly parameters: readonly string[] }) {
  const metric = summary.metric;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped withTableBorder fz="sm" data-testid="wf-windows">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Window</Table.Th><Table.Th>In sample (chosen on)</Table.Th><Table.Th>Out of sample (traded)</Table.Th><Table.Th>Parameters chosen</Table.Th>
            <Table.Th>{METRIC_LABELS[metric]} in sample</Table.Th><Table.Th>{METRIC_LABELS[metric]} out of sample</Table.Th><Table.Th>Net P&L out of sample</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.position} data-testid="wf-window">
              <Table.Td>{row.position + 1}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.inSample.fromDate} to {row.inSample.toDate} ({row.inSample.days} days)</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.outOfSample.fromDate} to {row.outOfSample.toDate} ({row.outOfSample.days} days)</Table.Td>
              <Table.Td ff="monospace">{bindingsText(row.chosen, parameters)}</Table.Td>
              <Table.Td>{metricText(metric, row.inSampleMetrics[metric])}</Table.Td>
              <Table.Td>{metricText(metric, row.outOfSampleMetrics[metric])}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{metricText('netPnl', row.outOfSampleMetrics.netPnl)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function MetricsSideBySide({ rows, summary }: { readonly rows: readonly WalkForwardWindowRow[]; readonly summary: WalkForwardSummary }) {
  return (
    <Table withTableBorder fz="sm" data-testid="wf-metrics">
      <Table.Thead><Table.Tr><Table.Th>Metric</Table.Th><Table.Th>In sample (mean of the windows)</Table.Th><Table.Th>Out of sample (stitched)</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {METRIC_ORDER.map((metric) => (
          <Table.Tr key={metric} data-metric={metric}>
            <Table.Td fw={metric === summary.metric ? 600 : undefined}>{METRIC_LABELS[metric]}</Table.Td>
            <Table.Td>{meanText(metric, meanInSample(rows, metric))}</Table.Td>
            <Table.Td>{metricText(metric, summary.outOfSampleMetrics[metric])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface WalkForwardResultsProps {
  readonly rows: readonly WalkForwardWindowRow[];
  readonly summary: WalkForwardSummary;
  readonly parameters: readonly string[];
  readonly profileName: string;
}

export function WalkForwardResults({ rows, summary, parameters, profileName }: WalkForwardResultsProps) {
  const lines: ChartLine[] = useMemo(() => [{ id: 'out-of-sample', label: 'Out-of-sample equity', points: equityPoints(summary) }], [summary]);
  return (
    <Stack gap="md" data-testid="wf-results">
      <Paper withBorder p="md">
        <Stack gap={6} data-testid="wf-gap">
          <Title order={5}>Do the parameters hold out of sample?</Title>
          {overfittingText(summary.overfitting).map((line) => <Text key={line} size="sm">{line}</Text>)}
          <Text size="sm" c="dimmed">{metricGapText(summary)}</Text>
        </Stack>
      </Paper>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder p="md">
          {summary.equity.dates.length === 0 ? <Text c="dimmed">No out-of-sample days to plot.</Text> : (
            <EquityChart lines={lines} formatValue={compactRupees} title="Stitched out-of-sample equity (daily, ₹)" fileBase="walk-forward-equity"
              profileName={profileName} testId="wf-equity-chart" saveTestId="wf-save-image" height={280} />
          )}
        </Paper>
        <Paper withBorder p="md"><MetricsSideBySide rows={rows} summary={summary} /></Paper>
      </SimpleGrid>
      <WindowsTable rows={rows} summary={summary} parameters={parameters} />
    </Stack>
  );
}

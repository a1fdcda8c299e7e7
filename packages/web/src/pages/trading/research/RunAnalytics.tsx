// One finished run: its daily equity curve (SVG line) and every metric the worker stored.
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { formatDate, formatRupees, MISSING_VALUE, percent } from '../../../format/format';
import { numberField, ratioText, stringField } from './display';
import { LineChart } from './LineChart';
import { dailyCurve, exitReasons } from './run-metrics';

type MetricKind = 'money' | 'percent' | 'ratio' | 'count' | 'fraction' | 'date';

/** The PerformanceMetrics fields shown, in reading order. */
const METRICS: ReadonlyArray<readonly [key: string, label: string, kind: MetricKind]> = [
  ['capital', 'Capital', 'money'], ['endingEquity', 'Ending equity', 'money'], ['netPnl', 'Net P&L', 'money'],
  ['grossPnl', 'Gross P&L', 'money'], ['chargesPaid', 'Charges', 'money'], ['returnPercent', 'Return', 'percent'],
  ['cagrPercent', 'CAGR', 'percent'], ['maxDrawdown', 'Max drawdown', 'money'], ['maxDrawdownPercent', 'Max drawdown %', 'percent'],
  ['maxDrawdownDurationDays', 'Drawdown length (days)', 'count'], ['maxDrawdownPeakDate', 'Drawdown peak', 'date'],
  ['maxDrawdownTroughDate', 'Drawdown trough', 'date'], ['sharpe', 'Sharpe', 'ratio'], ['sortino', 'Sortino', 'ratio'],
  ['calmar', 'Calmar', 'ratio'], ['trades', 'Trades', 'count'], ['orders', 'Orders', 'count'], ['winRate', 'Win rate', 'fraction'],
  ['profitFactor', 'Profit factor', 'ratio'], ['expectancy', 'Expectancy per trade', 'money'], ['averageWin', 'Average win', 'money'],
  ['averageLoss', 'Average loss', 'money'], ['largestWin', 'Largest win', 'money'], ['largestLoss', 'Largest loss', 'money'],
  ['longestWinStreak', 'Longest win streak', 'count'], ['longestLossStreak', 'Longest loss streak', 'count'],
  ['tradingDays', 'Trading days', 'count'], ['winningDays', 'Winning days', 'count'], ['losingDays', 'Losing days', 'count'],
  ['exposurePercent', 'Exposure', 'percent'], ['candlesProcessed', 'Candles processed', 'count'],
];

function metricText(metrics: unknown, key: string, kind: MetricKind): string {
  if (kind === 'ratio') return ratioText(metrics !== null && typeof metrics === 'object' ? (metrics as Record<string, unknown>)[key] : undefined);
  if (kind === 'date') return stringField(metrics, key) ?? MISSING_VALUE;
  const value = numberField(metrics, key);
  if (value === undefined) return MISSING_VALUE;
  switch (kind) {
    case 'money': return formatRupees(value);
    case 'percent': return percent(value);
    case 'fraction': return percent(value * 100);
    default: return value.toLocaleString('en-IN');
  }
}

export interface RunAnalyticsProps {
  readonly title: string;
  readonly metrics: unknown;
  readonly result: unknown;
}

/** The selected run's curve and metric grid. */
export function RunAnalytics({ title, metrics, result }: RunAnalyticsProps) {
  const curve = useMemo(() => dailyCurve(result), [result]);
  const reasons = exitReasons(result);
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Title order={4}>{title}</Title>
        {curve === undefined ? <Text c="dimmed">No equity curve stored for this run.</Text> : (
          <>
            <Text size="sm" fw={500}>Daily equity</Text>
            <LineChart xs={curve.times} ys={curve.equityPaise} formatX={formatDate} formatY={(paise) => formatRupees(paise, { compact: true })}
              title={`Daily equity of ${title}`} />
          </>
        )}
        {metrics === null || metrics === undefined
          ? <Text c="dimmed">No metrics: the run had no trading day.</Text>
          : (
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="xs" verticalSpacing={6}>
              {METRICS.map(([key, label, kind]) => (
                <div key={key}>
                  <Text size="xs" c="dimmed">{label}</Text>
                  <Text size="sm" fw={500}>{metricText(metrics, key, kind)}</Text>
                </div>
              ))}
            </SimpleGrid>
          )}
        {reasons.length > 0 && (
          <Text size="sm">Trades by exit reason: {reasons.map(([reason, count]) => `${reason} ${count}`).join(' · ')}</Text>
        )}
      </Stack>
    </Paper>
  );
}

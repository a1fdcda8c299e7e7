// The results of one finished run: headline numbers, equity and drawdown curves (lightweight-charts,
// save as image), calendar heatmaps of daily P&L and orders with their CSV, the trade list with
// every fill and its charges, and the performance panel for this run and the runs compared with it.
import { Alert, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { EquityChart, type ChartLine } from '../backtest/results/EquityChart';
import { PerformancePanel, type PanelRun } from '../backtest/results/PerformancePanel';
import { RunHeatmaps } from '../backtest/results/RunHeatmaps';
import { TradeList } from '../backtest/results/TradeList';
import { TradedSummaryLine } from '../backtest/results/TradedSummaryLine';
import { runCapitalRequirement } from '../backtest/results/capital';
import { chargesByDate, tradeRows } from '../backtest/results/trade-list';
import type { RunView } from '../backtest/results/run-view';
import { useCandles, useRunDays, useRunOrders } from '../backtest/results/use-run-details';
import { formatDate, formatRupees, formatRupeesAmount, MISSING_VALUE, percent } from '../../../format/format';
import { numberField } from './display';
import { useErrorToast } from './query-feedback';
import { dailyCurve, exitReasons, runSummary } from './run-metrics';

const compactRupees = (value: number): string => formatRupeesAmount(value, { compact: true });

function Stat({ label, value, testId, tone }: { readonly label: string; readonly value: string; readonly testId: string; readonly tone?: number | undefined }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed" tt="uppercase">{label}</Text>
      <Text fw={600} c={tone === undefined || tone === 0 ? 'inherit' : tone > 0 ? 'teal' : 'red'} data-testid={testId}>{value}</Text>
    </Paper>
  );
}

export interface RunAnalyticsProps {
  readonly run: RunView;
  readonly metrics: unknown;
  readonly result: unknown;
  /** Other selected runs, compared in the performance panel. */
  readonly compared: readonly PanelRun[];
  readonly computeInvestment: boolean;
  readonly onComputeInvestment: (value: boolean) => void;
  readonly profileName: string;
}

/** The focused run's results. */
export function RunAnalytics({ run, metrics, result, compared, computeInvestment, onComputeInvestment, profileName }: RunAnalyticsProps) {
  const summary = runSummary(metrics, result);
  const curve = useMemo(() => dailyCurve(result), [result]);
  const orders = useRunOrders(run.runId);
  const days = useRunDays(run.runId);
  const bars = useCandles(run.instrumentId === undefined || run.interval === undefined || run.from === undefined || run.to === undefined ? undefined
    : { instrumentId: run.instrumentId, interval: run.interval, from: run.from, to: run.to });
  useErrorToast(orders.error ?? days.error ?? bars.error);
  const rows = useMemo(() => tradeRows(orders.data ?? []), [orders.data]);
  const dayCharges = useMemo(() => chargesByDate(rows, formatDate), [rows]);
  const capital = useMemo(() => {
    if (orders.data === undefined || bars.data === undefined) return undefined;
    try {
      return { requirement: runCapitalRequirement({ orders: orders.data, bars: bars.data, underlying: run.tradingSymbol ?? '' }) };
    } catch (error) {
      return { requirement: undefined, problem: `The estimate could not be made: ${(error as Error).message}` };
    }
  }, [orders.data, bars.data, run.tradingSymbol]);
  const lines: ChartLine[] = useMemo(() => (curve === undefined ? [] : [{
    id: run.runId, label: run.title, points: curve.times.map((time, index) => ({ time: new Date(time).toISOString().slice(0, 10), value: (curve.equityPaise[index] as number) / 100 })),
  }]), [curve, run.runId, run.title]);
  const drawdown = useMemo(() => (curve === undefined ? undefined
    : curve.times.map((time, index) => ({ time: new Date(time).toISOString().slice(0, 10), value: -Math.abs(curve.drawdownPaise[index] ?? 0) / 100 }))), [curve]);
  const reasons = exitReasons(result);
  const panelRuns: PanelRun[] = useMemo(() => [
    { runId: run.runId, title: run.title, investmentPaise: run.investmentPaise ?? numberField(metrics, 'capital') ?? 1, from: run.from ?? '', to: run.to ?? '', metrics },
    ...compared,
  ], [run, metrics, compared]);
  return (
    <Stack gap="md" data-testid={`bt-results-${run.runId}`}>
      <Title order={4}>{run.title}</Title>
      <TradedSummaryLine result={result} />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs">
        <Stat label="Net P&L" value={summary.netPnlPaise === undefined ? MISSING_VALUE : formatRupees(summary.netPnlPaise)} testId="bt-net-pnl" tone={summary.netPnlPaise} />
        <Stat label="Trades" value={summary.trades === undefined ? MISSING_VALUE : summary.trades.toLocaleString('en-IN')} testId="bt-trade-count" />
        <Stat label="Charges" value={summary.chargesPaise === undefined ? MISSING_VALUE : formatRupees(summary.chargesPaise)} testId="bt-charges" />
        <Stat label="Return" value={summary.returnPercent === undefined ? MISSING_VALUE : percent(summary.returnPercent)} testId="bt-return" tone={summary.returnPercent} />
        <Stat label="Max drawdown" value={summary.maxDrawdownPaise === undefined ? MISSING_VALUE : formatRupees(summary.maxDrawdownPaise)} testId="bt-max-drawdown" />
        <Stat label="Win rate" value={summary.winRate === undefined ? MISSING_VALUE : percent(summary.winRate * 100)} testId="bt-win-rate" />
      </SimpleGrid>
      {metrics === null && <Alert color="gray" data-testid="bt-no-metrics">No metrics: the run had no trading day in its range.</Alert>}
      <Paper withBorder p="md">
        {curve === undefined ? <Text c="dimmed">No equity curve stored for this run.</Text> : (
          <EquityChart lines={lines} drawdown={drawdown} formatValue={compactRupees} title="Equity and drawdown (daily, ₹)" fileBase="backtest-equity" profileName={profileName} />
        )}
        {reasons.length > 0 && <Text size="xs" c="dimmed" mt="xs">Trades by exit reason: {reasons.map(([reason, count]) => `${reason} ${count}`).join(' · ')}</Text>}
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text size="sm" fw={500}>Daily profit/loss and orders</Text>
          {days.data === undefined ? <Loader size="sm" /> : <RunHeatmaps days={days.data} from={run.from ?? ''} to={run.to ?? ''} profileName={profileName} investmentPaise={run.investmentPaise} />}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text size="sm" fw={500}>Orders and fills</Text>
          {orders.data === undefined ? (orders.error === undefined ? <Loader size="sm" /> : <Text c="red" size="sm">The orders could not be loaded.</Text>)
            : <TradeList rows={rows} runChargesPaise={summary.chargesPaise} />}
        </Stack>
      </Paper>
      <PerformancePanel runs={panelRuns} computeInvestment={computeInvestment} onComputeInvestment={onComputeInvestment} chargesByDate={dayCharges}
        capital={{ title: run.title, requirement: capital?.requirement, ...(capital?.problem === undefined ? {} : { problem: capital.problem }) }} />
    </Stack>
  );
}

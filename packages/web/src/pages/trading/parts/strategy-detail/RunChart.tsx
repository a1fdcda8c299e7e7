// The strategy instrument's candles at its interval with the run's fills as markers, whatever
// contract they were on (an index strategy trades its futures or options): buy entries below the
// bar, sell entries above it, exits as circles. A replay's chart loads its range once and grows
// as the replay goes: candles up to the market time the runner writes on the run row about once
// a second (params.replayedUntilMs, followed by the strategy's subscription), or its latest order
// or fill when later, never the bars it has not reached; a stopped replay's chart ends where it
// stopped. A run on the market loads its last days again whenever the run writes something new.
// The run's rows come from its subscriptions; data-last-candle says the last candle shown (epoch ms).
import { Alert, Group, Loader, Text } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useQuery } from 'urql';
import { PriceChart } from '../../chart/PriceChart';
import { rupeeCandles } from '../../chart/chart-candles';
import { CHART_CANDLES, type CandleSeriesRow } from '../../chart/chart-queries';
import { errorMessage } from '../QueryState';
import { epochMs } from '../time';
import { candlesUntil, chartRange, replayOf, replayReachedOf, replayShownUntil, todayOf, tradeMarks, type FilledOrder } from './detail-model';
import type { DetailRunRow, RunDetailRow } from './detail-queries';

/** The latest instant the run has written (an order's creation or a fill), on the run's clock. */
function lastWritten(detail: RunDetailRow | undefined): number | undefined {
  if (detail === undefined) return undefined;
  const times = [
    ...detail.latest.map((order) => epochMs(order.created_at)),
    ...detail.filled.flatMap((order) => order.fills.map((fill) => epochMs(fill.ts))),
  ].filter((time): time is number => time !== undefined);
  return times.length === 0 ? undefined : Math.max(...times);
}

export function RunChart({ run, detail, instrumentId, intervalMinutes }: {
  readonly run: DetailRunRow;
  readonly detail: RunDetailRow | undefined;
  readonly instrumentId: number;
  readonly intervalMinutes: number;
}) {
  const replay = replayOf(run.params);
  const inProgress = run.status === 'IN PROGRESS';
  const range = chartRange({ replay, startedAt: epochMs(run.started_at) ?? 0, finishedAt: epochMs(run.finished_at), today: todayOf(Date.now()) });
  const [result, reexecute] = useQuery<{ candle_series: CandleSeriesRow }>({
    query: CHART_CANDLES,
    variables: { instrument_id: instrumentId, interval: intervalMinutes, from: range.from, to: range.to },
  });
  const written = lastWritten(detail);
  // A run on the market makes new candles as it goes: load them again when it writes something.
  useEffect(() => {
    if (replay === undefined && inProgress && written !== undefined) reexecute({ requestPolicy: 'network-only' });
  }, [replay, inProgress, written, reexecute]);

  const series = result.data?.candle_series;
  const all = useMemo(() => (series === undefined ? undefined : rupeeCandles(series)), [series]);
  const shownUntil = replayShownUntil({ replay, inProgress, reachedMs: replayReachedOf(run.params), writtenMs: written });
  const candles = useMemo(() => (all === undefined ? undefined : candlesUntil(all, shownUntil)), [all, shownUntil]);
  const orders: FilledOrder[] = useMemo(() => (detail?.filled ?? []).map((order) => ({
    side: order.side,
    instrumentId: order.instrument_id,
    fills: order.fills.map((fill) => ({ quantity: fill.quantity, time: epochMs(fill.ts) ?? 0 })),
  })), [detail]);
  const marks = useMemo(() => tradeMarks(orders), [orders]);

  if (result.error) return <Alert color="red" title="Could not load the candles">{errorMessage(result.error)}</Alert>;
  if (candles === undefined) return <Loader size="sm" />;
  const entries = marks.filter((mark) => mark.kind !== 'exit').length;
  const lastCandle = candles.time.length === 0 ? undefined : candles.time[candles.time.length - 1];
  return (
    <div data-testid="run-chart" data-fills={marks.length} data-entries={entries} data-exits={marks.length - entries} data-last-candle={lastCandle}>
      <Group gap="md" mb={6} wrap="wrap">
        <Text size="xs" c="dimmed">{replay ? `Replay of ${replay.from} to ${replay.to}` : `${range.from} to ${range.to}`}, {intervalMinutes}-minute candles</Text>
        <Text size="xs" c="teal">▲ buy entry</Text>
        <Text size="xs" c="red">▼ sell entry</Text>
        <Text size="xs" c="dimmed">● exit</Text>
        <Text size="xs" c="dimmed" data-testid="run-chart-marks">{entries} {entries === 1 ? 'entry' : 'entries'}, {marks.length - entries} {marks.length - entries === 1 ? 'exit' : 'exits'}</Text>
      </Group>
      {candles.time.length === 0
        ? <Text c="dimmed" size="sm">{replay && inProgress ? 'The chart follows the replay from its first bar.' : 'No candles stored for these dates.'}</Text>
        : <PriceChart candles={candles} signals={marks} height={380} />}
    </div>
  );
}

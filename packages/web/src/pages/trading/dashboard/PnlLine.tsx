// The line view: booked P&L per day, week or month with its running total (or orders per period),
// on the backtest screens' lightweight-charts line (zoom with the wheel, drag to pan, save as image).
import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import { formatRupeesAmount } from '../../../format/format';
import { EquityChart, type ChartLine } from '../backtest/results/EquityChart';
import type { HeatmapMetric } from '../parts/heatmap-bands';
import { linePoints, type Bucket, type Duration } from './pnl-buckets';

const PERIOD: Record<Duration, string> = { day: 'day', week: 'week', month: 'month' };
const orderCount = (value: number): string => Math.round(value).toLocaleString('en-IN');
const rupees = (value: number): string => formatRupeesAmount(value, { compact: true });

export function PnlLine(props: { buckets: readonly Bucket[]; duration: Duration; metric: HeatmapMetric; profileName: string; mode: string }) {
  const { buckets, duration, metric, profileName, mode } = props;
  const lines = useMemo<ChartLine[]>(() => {
    if (metric === 'orders') return [{ id: 'orders', label: `Orders per ${PERIOD[duration]}`, points: buckets.map((bucket) => ({ time: bucket.from, value: bucket.orders })) }];
    const { perBucket, cumulative } = linePoints(buckets);
    return [
      { id: 'period', label: `P&L per ${PERIOD[duration]}`, points: perBucket },
      { id: 'total', label: 'Running total', points: cumulative },
    ];
  }, [buckets, duration, metric]);
  // The shared chart fits its points to its width once, when made: made again when the width
  // changes by a step (a phone turned, a window resized), so every period stays in view.
  const { ref, width } = useElementSize();
  const title = metric === 'orders' ? `Orders per ${PERIOD[duration]}` : `Booked P&L per ${PERIOD[duration]} and running total (₹)`;
  return (
    <Box ref={ref}>
      <EquityChart
        key={Math.round(width / 40)}
        lines={lines}
        formatValue={metric === 'orders' ? orderCount : rupees}
        title={title}
        fileBase={`${mode.toLowerCase()}-${metric === 'orders' ? 'orders' : 'pnl'}-by-${duration}`}
        profileName={profileName}
        testId="dashboard-line-chart"
        saveTestId="dashboard-save-image"
      />
    </Box>
  );
}

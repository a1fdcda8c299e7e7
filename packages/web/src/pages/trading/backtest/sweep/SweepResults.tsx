// One sweep or walk-forward opened from the run's list: while it runs, its progress; when it
// ended in ERROR or CANCELLED, why; when complete, a sweep's best cell and the stability around
// it, its heatmap and the table of every row, or a walk-forward's windows and overfitting gap.
import { Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { SweepMetric } from '@vyuha/engine';
import { rankValue } from '@vyuha/engine';
import { useMemo } from 'react';
import { objectField } from '../../research/display';
import { QueryError } from '../../research/query-feedback';
import { declaredParameters, metricOf } from './sweep-form';
import { bindingsText, METRIC_LABELS, metricText, parameterNames, stabilityText, sweepRows, sweepSummary } from './sweep-view';
import type { SweepRowRecord } from './sweep-view';
import { SweepHeatmap } from './SweepHeatmap';
import { SweepTable } from './SweepTable';
import { useSweepDetail, useSweepRows, type SweepRecord } from './use-sweeps';
import { walkForwardRows, walkForwardSummary } from './walk-forward-view';
import { WalkForwardResults } from './WalkForwardResults';

function SweepGrid({ rows, parameters, metric, summary }: {
  readonly rows: readonly SweepRowRecord[]; readonly parameters: readonly string[]; readonly metric: SweepMetric; readonly summary: unknown;
}) {
  const read = sweepSummary(summary, metric);
  const best = read?.best ?? null;
  return (
    <Stack gap="md">
      <Paper withBorder p="md" data-testid="sweep-best">
        <Stack gap={4}>
          <Title order={5}>Best combination by {METRIC_LABELS[metric]}</Title>
          {best === null ? <Text size="sm" c="dimmed">No combination has a {METRIC_LABELS[metric].toLowerCase()} (no trades, or too few days).</Text> : (
            <>
              <Text size="sm" data-testid="sweep-best-cell" data-position={best.position}>
                <Text span ff="monospace" fw={600}>{bindingsText(best.bindings, parameters)}</Text>: {METRIC_LABELS[metric]} {metricText(metric, best.metrics[metric])},
                net P&L {metricText('netPnl', best.metrics.netPnl)}, max drawdown {metricText('maxDrawdown', best.metrics.maxDrawdown)}, {best.metrics.trades} trades.
              </Text>
              {read?.stability !== null && read?.stability !== undefined && (
                <Text size="sm" data-testid="sweep-stability">{stabilityText(read.stability, metric, rankValue(best.metrics, metric))}</Text>
              )}
            </>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md"><SweepHeatmap rows={rows} parameters={parameters} metric={metric} best={best} /></Paper>
      <SweepTable rows={rows} parameters={parameters} metric={metric} />
    </Stack>
  );
}

function Ended({ sweep }: { readonly sweep: SweepRecord }) {
  const what = sweep.kind === 'walkforward' ? 'walk-forward' : 'sweep';
  if (sweep.status === 'QUEUED' || sweep.status === 'IN PROGRESS') {
    return <Text c="dimmed" data-testid="sweep-running">This {what} is {sweep.status === 'QUEUED' ? 'queued' : `${sweep.progress}% done`}: its results appear here when it completes.</Text>;
  }
  return <Text c="dimmed" data-testid="sweep-ended">This {what} ended {sweep.status}{sweep.error === null ? '' : `: ${sweep.error}`}. It has no results.</Text>;
}

export interface SweepResultsProps {
  readonly sweep: SweepRecord;
  readonly profileName: string;
}

export function SweepResults({ sweep, profileName }: SweepResultsProps) {
  const complete = sweep.status === 'COMPLETE';
  const detail = useSweepDetail(sweep.sweep_id, sweep.status);
  const loaded = useSweepRows(sweep.sweep_id, complete && detail.sweep?.status === 'COMPLETE');
  const request = detail.sweep?.request;
  const declared = useMemo(() => declaredParameters(objectField({ request }, 'request')?.parameters).map((parameter) => parameter.name), [request]);
  const metric = metricOf(sweep.metric, 'sharpe');
  const body = (() => {
    if (!complete) return <Ended sweep={sweep} />;
    if (detail.sweep === undefined || loaded.rows === undefined) return detail.error ?? loaded.error ? null : <Loader size="sm" aria-label="Loading the results" />;
    if (sweep.kind === 'walkforward') {
      const summary = walkForwardSummary(detail.sweep?.summary);
      if (summary === undefined) return <Text c="red">The walk-forward's summary could not be read.</Text>;
      return <WalkForwardResults rows={walkForwardRows(loaded.rows)} summary={summary} parameters={declared} profileName={profileName} />;
    }
    const rows = sweepRows(loaded.rows);
    return <SweepGrid rows={rows} parameters={parameterNames(rows, declared)} metric={metric} summary={detail.sweep?.summary} />;
  })();
  return (
    <Stack gap="sm" data-testid={`sweep-results-${sweep.sweep_id}`}>
      <Title order={4}>{sweep.kind === 'walkforward' ? 'Walk-forward' : 'Sweep'} ranked by {METRIC_LABELS[metric]}</Title>
      <QueryError error={detail.error ?? loaded.error} title="Could not load the results" />
      {body}
    </Stack>
  );
}

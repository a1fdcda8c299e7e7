// The dashboard's toolbar: LIVE/PAPER mode (docs/PRODUCT.md section 4: demo and backtest are held in
// PAPER and the switch is locked; everyone else picks, saved with their preferences as the
// header's switch saves it), chart type (heatmap default, or line), duration (day default, week,
// month), the heatmap's metric and the date range. Wraps on a narrow screen.
import { Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { graphqlClient } from '../../../graphql/graphql-client';
import { saveGlobalPreferences } from '../../../preferences/preferences';
import { useAppStore, type DashboardMode } from '../../../stores/app-store';
import type { HeatmapMetric } from '../parts/heatmap-bands';
import type { Duration } from './pnl-buckets';

export type ChartType = 'heatmap' | 'line';

export interface DashboardView {
  readonly chart: ChartType;
  readonly duration: Duration;
  readonly metric: HeatmapMetric;
}

function Labelled({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>{label}</Text>
      {children}
    </Stack>
  );
}

/** The mode switch; `locked` for the paper-only roles, `userId` the signed-in user whose preference it saves (none while acting for another). */
export function ModeSwitch({ mode, locked, saveFor }: { readonly mode: DashboardMode; readonly locked: boolean; readonly saveFor: string | undefined }) {
  return (
    <Labelled label="Mode">
      <Tooltip label="Demo and backtest plans trade on paper only" disabled={!locked}>
        <SegmentedControl
          data={['LIVE', 'PAPER']}
          value={mode}
          disabled={locked}
          aria-label="Dashboard mode"
          data-testid="dashboard-page-mode"
          onChange={(value) => {
            const next = value === 'PAPER' ? 'PAPER' : 'LIVE';
            useAppStore.getState().setDashboardMode(next);
            if (saveFor !== undefined) void saveGlobalPreferences(graphqlClient(), { userId: saveFor, changes: { dashboardMode: next } });
          }}
        />
      </Tooltip>
    </Labelled>
  );
}

export function ViewControls({ view, onChange }: { readonly view: DashboardView; readonly onChange: (view: DashboardView) => void }) {
  return (
    <>
      <Labelled label="Chart">
        <SegmentedControl<ChartType> value={view.chart} onChange={(chart) => onChange({ ...view, chart })} aria-label="Chart type" data-testid="dashboard-chart-type"
          data={[{ value: 'heatmap', label: 'Heatmap' }, { value: 'line', label: 'Line' }]} />
      </Labelled>
      <Labelled label="Duration">
        <SegmentedControl<Duration> value={view.duration} onChange={(duration) => onChange({ ...view, duration })} aria-label="Duration" data-testid="dashboard-duration"
          data={[{ value: 'day', label: 'Day' }, { value: 'week', label: 'Week' }, { value: 'month', label: 'Month' }]} />
      </Labelled>
      <Labelled label="Show">
        <SegmentedControl<HeatmapMetric> value={view.metric} onChange={(metric) => onChange({ ...view, metric })} aria-label="Profit/loss or orders" data-testid="dashboard-metric"
          data={[{ value: 'pnl', label: 'Profit/loss' }, { value: 'orders', label: 'Orders' }]} />
      </Labelled>
    </>
  );
}

export function Toolbar({ children }: { readonly children: ReactNode }) {
  return <Group align="flex-end" gap="md" wrap="wrap">{children}</Group>;
}

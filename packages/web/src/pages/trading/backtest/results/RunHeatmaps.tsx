// Calendar heatmaps of one run's daily P&L, order counts and returns on its investment (docs/PRODUCT.md
// section 9's bands, main or alternate) over the run's date range, and the heatmap CSV, made in
// the browser (docs/PRODUCT.md section 7).
import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { downloadFileName } from '../../../../format/format';
import { CalendarHeatmap, HeatmapLegend } from '../../parts/CalendarHeatmap';
import { downloadText } from '../../parts/csv';
import type { BandChoice, HeatmapMetric } from '../../parts/heatmap-bands';
import { heatmapCsvText, heatmapValues } from './heatmap-data';
import type { DailyPnlRecord } from './performance';

export interface RunHeatmapsProps {
  readonly days: readonly DailyPnlRecord[];
  readonly from: string;
  readonly to: string;
  readonly profileName: string;
  /** The run's investment, for the returns heatmap. */
  readonly investmentPaise: number | undefined;
}

export function RunHeatmaps({ days, from, to, profileName, investmentPaise }: RunHeatmapsProps) {
  const [metric, setMetric] = useState<HeatmapMetric>('pnl');
  const [bands, setBands] = useState<BandChoice>('standard');
  const values = useMemo(() => heatmapValues(days), [days]);
  const download = (): void => {
    const name = downloadFileName({ profileName, base: `backtest-heatmap-${from}-to-${to}`, extension: 'csv', nowMs: Date.now() });
    downloadText(name, heatmapCsvText(days));
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="sm">
          <SegmentedControl<HeatmapMetric> size="xs" aria-label="Heatmap of profit/loss, orders or returns" value={metric} onChange={setMetric}
            data={[{ value: 'pnl', label: 'Profit/loss' }, { value: 'orders', label: 'Orders' }, { value: 'returns', label: 'Returns', disabled: investmentPaise === undefined }]} />
          <SegmentedControl<BandChoice> size="xs" aria-label="Band scale" value={bands} onChange={setBands} disabled={metric === 'returns'}
            data={[{ value: 'standard', label: 'Bands' }, { value: 'alternate', label: metric === 'orders' ? 'By 1' : 'By ₹2,000' }]} />
        </Group>
        <Button size="xs" variant="light" onClick={download} data-testid="bt-heatmap-csv">Download CSV</Button>
      </Group>
      {days.length === 0 ? <Text size="sm" c="dimmed">No trading days stored for this run.</Text> : (
        <>
          <CalendarHeatmap from={from} to={to} days={values} metric={metric} bands={bands} {...(investmentPaise === undefined ? {} : { capitalPaise: investmentPaise })} />
          <HeatmapLegend metric={metric} bands={bands} />
        </>
      )}
    </Stack>
  );
}

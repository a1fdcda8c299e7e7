// The heatmap of week or month buckets: one labelled cell per period of the range, coloured by the
// same docs/PRODUCT.md section 9 bands as the daily calendar, wrapping on a narrow screen; a period
// that had trading is a button that opens its orders.
import { Box, Group, Text, UnstyledButton } from '@mantine/core';
import { formatRupees } from '../../../format/format';
import { bandColor, ordersBand, pnlBand, type HeatmapMetric } from '../parts/heatmap-bands';
import { bucketLabel, type Bucket, type Duration } from './pnl-buckets';

const EMPTY_FILL = 'var(--mantine-color-default-border)';
const ZERO_FILL = 'var(--mantine-color-gray-5)';

export function bucketTitle(bucket: Bucket): string {
  const period = bucket.from === bucket.to ? bucket.from : `${bucket.from} to ${bucket.to}`;
  if (bucket.tradingDays === 0) return `${period}: no trading`;
  return `${period}: ${formatRupees(bucket.pnlPaise)}, ${bucket.orders} ${bucket.orders === 1 ? 'order' : 'orders'}`;
}

function fillOf(bucket: Bucket, metric: HeatmapMetric): string {
  if (bucket.tradingDays === 0) return EMPTY_FILL;
  const band = metric === 'orders' ? ordersBand(bucket.orders) : pnlBand(bucket.pnlPaise);
  return bandColor(band) ?? ZERO_FILL;
}

export interface BucketHeatmapProps {
  readonly buckets: readonly Bucket[];
  readonly duration: Exclude<Duration, 'day'>;
  readonly metric: HeatmapMetric;
  readonly selected: string | undefined;
  readonly onSelect: (bucket: Bucket) => void;
}

export function BucketHeatmap({ buckets, duration, metric, selected, onSelect }: BucketHeatmapProps) {
  const size = duration === 'week' ? 56 : 84;
  return (
    <Group gap={6} role="group" aria-label={`${duration === 'week' ? 'Weekly' : 'Monthly'} ${metric === 'orders' ? 'orders' : 'profit/loss'}`}>
      {buckets.map((bucket) => {
        const fill = fillOf(bucket, metric);
        const chosen = selected === bucket.from;
        const cell = (
          <Box w={size} h={40} style={{ background: fill, borderRadius: 4, outline: chosen ? '2px solid var(--mantine-color-text)' : undefined }} />
        );
        const label = <Text size="xs" c="dimmed" ta="center">{bucketLabel(bucket, duration)}</Text>;
        if (bucket.tradingDays === 0) {
          return <Box key={bucket.from} title={bucketTitle(bucket)} data-bucket={bucket.from}>{cell}{label}</Box>;
        }
        return (
          <UnstyledButton key={bucket.from} title={bucketTitle(bucket)} aria-label={bucketTitle(bucket)} aria-pressed={chosen}
            data-bucket={bucket.from} onClick={() => onSelect(bucket)}>
            {cell}{label}
          </UnstyledButton>
        );
      })}
    </Group>
  );
}

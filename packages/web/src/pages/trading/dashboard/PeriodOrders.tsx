// The orders of the day (or week, month) picked on the heatmap: the user's orders of runs in the
// dashboard's mode placed in that IST period, live, through the shared OrdersTable.
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { IsoDateRange } from '@vyuha/core';
import { useMemo } from 'react';
import { formatRupees } from '../../../format/format';
import { OrdersTable } from '../parts/trading-tables/OrdersTable';
import { istBounds, type BookedDay } from './pnl-buckets';

export interface PeriodOrdersProps {
  readonly userId: string;
  readonly mode: string;
  readonly period: IsoDateRange;
  /** The period's figures as the heatmap shows them. */
  readonly figures: BookedDay | undefined;
  readonly onClose: () => void;
}

export function PeriodOrders({ userId, mode, period, figures, onClose }: PeriodOrdersProps) {
  const where = useMemo(() => {
    const bounds = istBounds(period);
    return { user_id: { _eq: userId }, run: { kind: { _eq: mode } }, created_at: { _gte: bounds.from, _lt: bounds.before } };
  }, [userId, mode, period]);
  const name = period.from === period.to ? period.from : `${period.from} to ${period.to}`;
  return (
    <Paper withBorder p="md" data-testid="dashboard-period-orders">
      <Stack gap="sm">
        <Group justify="space-between">
          <Stack gap={0}>
            <Text fw={600}>Orders of {name}</Text>
            {figures !== undefined && (
              <Text size="sm" c="dimmed" data-testid="dashboard-period-figures">
                Booked {formatRupees(figures.pnlPaise)} = realised {formatRupees(figures.realisedPaise)} less charges {formatRupees(figures.chargesPaise)}
                {figures.mtmPaise !== 0 && ` · open positions moved ${formatRupees(figures.mtmPaise)} (not booked)`}
              </Text>
            )}
          </Stack>
          <Button size="xs" variant="default" onClick={onClose}>Close</Button>
        </Group>
        <OrdersTable where={where} showStrategy limit={50} emptyText={`No ${mode.toLowerCase()} orders were placed in ${name}.`} />
      </Stack>
    </Paper>
  );
}

// The chosen run's equity (cumulative P&L after charges at each day's end) and its drawdown, from
// the run's daily_pnl rows as its subscription delivers them, on the backtest screens' chart.
import { Group, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { formatRupees, formatRupeesAmount } from '@vyuha/core';
import { EquityChart } from '../../backtest/results/EquityChart';
import { paiseOf } from '../trading-tables/orders-model';
import { pnlColor } from './detail-bits';
import { equityCurves } from './detail-model';
import type { RunDetailRow } from './detail-queries';

const PROFILE = `query DetailProfileName($userId: uuid!) { users_by_pk(user_id: $userId) { name } }`;

const compactRupees = (value: number): string => formatRupeesAmount(value, { compact: true });

export function RunEquity({ detail, userId }: { readonly detail: RunDetailRow; readonly userId: string }) {
  const [profile] = useQuery<{ users_by_pk: { name: string } | null }>({ query: PROFILE, variables: { userId } });
  const curves = useMemo(
    () => equityCurves(detail.daily_pnl.map((day) => ({ date: day.date, pnlPaise: paiseOf(day.pnl_paise) ?? 0 }))),
    [detail.daily_pnl],
  );
  const lines = useMemo(() => [{ id: detail.run_id, label: 'Equity', points: curves.equity }], [detail.run_id, curves.equity]);
  if (curves.equity.length === 0) return <Text c="dimmed" size="sm">No trading days yet.</Text>;
  return (
    <Stack gap="xs" data-testid="run-equity" data-days={curves.equity.length} data-total-paise={curves.totalPaise}>
      <Group gap="lg" wrap="wrap">
        <Text size="sm">P&L after charges: <Text span fw={600} c={pnlColor(curves.totalPaise)}>{formatRupees(curves.totalPaise)}</Text></Text>
        <Text size="sm">Largest drawdown: <Text span fw={600} c={pnlColor(curves.maxDrawdownPaise)}>{formatRupees(curves.maxDrawdownPaise)}</Text></Text>
        <Text size="sm" c="dimmed">{curves.equity.length} {curves.equity.length === 1 ? 'day' : 'days'}</Text>
      </Group>
      <EquityChart lines={lines} drawdown={curves.drawdown} formatValue={compactRupees} title="Equity and drawdown (daily, ₹)"
        fileBase="strategy-equity" profileName={profile.data?.users_by_pk?.name ?? ''} height={280} testId="run-equity-chart" saveTestId="run-equity-save" />
    </Stack>
  );
}

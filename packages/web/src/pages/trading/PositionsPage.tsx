// /positions (docs/PRODUCT.md sections 2 and 4): what the account holds now across its PAPER and LIVE
// strategies' runs in progress and its broker accounts, live (LTP, unrealised and realised P&L,
// totals, net greeks of options; square off one or all), and the positions it closed today with
// their realised P&L and charges. Backtest runs never appear (PositionsTable filters them out).
import { Paper, Stack, Text, Title } from '@mantine/core';
import { istDate } from '@vyuha/core';
import { useMemo } from 'react';
import { PositionsTable } from './parts/trading-tables/PositionsTable';
import { useSubject } from './parts/use-subject';

/** Midnight IST of today, as a timestamptz literal: the day's closed positions changed after it. */
function startOfTodayIst(nowMs: number): string {
  return `${istDate(nowMs)}T00:00:00+05:30`;
}

function Section({ title, hint, children }: { readonly title: string; readonly hint: string; readonly children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed">{hint}</Text>
        {children}
      </Stack>
    </Paper>
  );
}

export function Component() {
  const { userId } = useSubject();
  // A basket placement's run ends once its legs are placed, but what it bought is held until squared off.
  const openWhere = useMemo(() => ({
    run: { user_id: { _eq: userId ?? '' }, _or: [{ status: { _eq: 'IN PROGRESS' } }, { params: { _has_key: 'basket' } }] },
  }), [userId]);
  const closedWhere = useMemo(() => ({ run: { user_id: { _eq: userId ?? '' } }, updated_at: { _gte: startOfTodayIst(Date.now()) } }), [userId]);
  return (
    <Stack gap="md">
      <Title order={2}>Positions</Title>
      {userId !== undefined && (
        <>
          <Section title="Open positions" hint="Held now by your paper and live strategies and baskets; prices and P&L update as the market moves.">
            <PositionsTable where={openWhere} open allowSquareOff showStrategy />
          </Section>
          <Section title="Closed today" hint="Positions your strategies closed today, with their realised P&L and charges.">
            <PositionsTable where={closedWhere} open={false} showStrategy />
          </Section>
        </>
      )}
    </Stack>
  );
}

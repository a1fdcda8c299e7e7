// Today's P&L (the IST date) per strategy and in total: booked (realised less charges) and the
// day's unrealised move of open positions at their last mark, live; below it, replays still
// running with the replayed day they have reached (past dates, so never in today's total).
import { Anchor, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatRupees } from '../../../format/format';
import { bookedOf } from './pnl-buckets';
import { replayOf, todayByStrategy, type RunningReplayRow, type StrategyDay, type TodayRow } from './today-pnl';

const tone = (paise: number): string => (paise > 0 ? 'teal' : paise < 0 ? 'red' : 'inherit');

function Money({ paise, testId }: { readonly paise: number; readonly testId?: string }) {
  return <Text span size="sm" c={tone(paise)} data-testid={testId} style={{ whiteSpace: 'nowrap' }}>{formatRupees(paise)}</Text>;
}

function StrategyName({ day, linkStrategies }: { readonly day: Pick<StrategyDay, 'strategyId' | 'name'>; readonly linkStrategies: boolean }) {
  if (!linkStrategies || day.strategyId === undefined) return <Text span size="sm">{day.name}</Text>;
  return <Anchor component={Link} to={`/strategies/${day.strategyId}`} size="sm">{day.name}</Anchor>;
}

function TodayTable({ rows, linkStrategies }: { readonly rows: readonly TodayRow[]; readonly linkStrategies: boolean }) {
  const { strategies, total } = todayByStrategy(rows);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table fz="sm" verticalSpacing={6} data-testid="dashboard-today-table">
        <Table.Thead>
          <Table.Tr><Table.Th>Strategy</Table.Th><Table.Th ta="right">Booked</Table.Th><Table.Th ta="right">Unrealised</Table.Th><Table.Th ta="right">Total</Table.Th><Table.Th ta="right">Orders</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {strategies.map((day) => (
            <Table.Tr key={day.key}>
              <Table.Td>
                <Group gap={6} wrap="nowrap"><StrategyName day={day} linkStrategies={linkStrategies} />{day.running && <Badge size="xs" variant="light">running</Badge>}</Group>
              </Table.Td>
              <Table.Td ta="right"><Money paise={day.bookedPaise} /></Table.Td>
              <Table.Td ta="right"><Money paise={day.unrealisedPaise} /></Table.Td>
              <Table.Td ta="right"><Money paise={day.totalPaise} /></Table.Td>
              <Table.Td ta="right">{day.orders}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr fw={600}>
            <Table.Td>Total</Table.Td>
            <Table.Td ta="right"><Money paise={total.bookedPaise} /></Table.Td>
            <Table.Td ta="right"><Money paise={total.unrealisedPaise} /></Table.Td>
            <Table.Td ta="right"><Money paise={total.totalPaise} testId="dashboard-today-total" /></Table.Td>
            <Table.Td ta="right">{total.orders}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RunningReplays({ runs, linkStrategies }: { readonly runs: readonly RunningReplayRow[]; readonly linkStrategies: boolean }) {
  const replays = runs.flatMap((run) => {
    const replay = replayOf(run.params);
    return replay === undefined ? [] : [{ run, replay, latest: run.daily_pnl[0] }];
  });
  if (replays.length === 0) return null;
  return (
    <Stack gap={4} data-testid="dashboard-replays">
      <Text size="xs" c="dimmed" tt="uppercase">Replays running</Text>
      {replays.map(({ run, replay, latest }) => {
        const booked = latest === undefined ? undefined : bookedOf({ ...latest, run_id: run.run_id });
        return (
          <Group key={run.run_id} gap="xs" justify="space-between" data-run={run.run_id}>
            <StrategyName day={{ strategyId: run.strategy?.strategy_id, name: run.strategy?.name ?? 'A deleted strategy' }} linkStrategies={linkStrategies} />
            <Text size="sm" c="dimmed">
              {replay.from} to {replay.to} at {replay.speed === 0 ? 'full speed' : `${replay.speed}x`}
              {latest === undefined || booked === undefined ? ' · no trades yet' : ' · '}
              {latest !== undefined && booked !== undefined && <>{latest.date}: <Money paise={booked.pnlPaise} /> booked, {booked.orders} orders</>}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

export function TodayPanel(props: { today: string; rows: readonly TodayRow[] | undefined; running: readonly RunningReplayRow[] | undefined; linkStrategies: boolean; modeWord: string }) {
  const { today, rows, running, linkStrategies, modeWord } = props;
  return (
    <Paper withBorder p="md" data-testid="dashboard-today">
      <Stack gap="sm">
        <Text fw={600}>Today · {today}</Text>
        {rows === undefined ? <Text size="sm" c="dimmed">Loading…</Text>
          : rows.length === 0 ? <Text size="sm" c="dimmed" data-testid="dashboard-today-empty">No {modeWord} trades today yet.</Text>
            : <TodayTable rows={rows} linkStrategies={linkStrategies} />}
        {running !== undefined && <RunningReplays runs={running} linkStrategies={linkStrategies} />}
      </Stack>
    </Paper>
  );
}

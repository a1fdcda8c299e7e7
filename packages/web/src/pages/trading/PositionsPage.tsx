// /positions: the net positions of the user's runs (positions, through strategy_runs). Current
// holds the open positions (net quantity not zero), History the closed ones (flat), docs/PRODUCT.md
// section 4's Current/History filter.
import { Anchor, Badge, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { formatRupees } from '../../format/format';
import { QueryState } from './parts/QueryState';
import { dateTimeText } from './parts/time';
import { useSubject } from './parts/use-subject';

const POSITIONS = `query Positions($where: positions_bool_exp!) {
  positions(where: $where, order_by: [{ updated_at: desc }]) {
    run_id instrument_id net_quantity average_price_paise realised_pnl_paise updated_at
    instrument { trading_symbol exchange }
    run { kind strategy { strategy_id name } }
  }
}`;

interface PositionRow {
  readonly run_id: string;
  readonly instrument_id: number;
  readonly net_quantity: number;
  readonly average_price_paise: number | string;
  readonly realised_pnl_paise: number | string;
  readonly updated_at: string;
  readonly instrument: { readonly trading_symbol: string; readonly exchange: string } | null;
  readonly run: { readonly kind: string; readonly strategy: { readonly strategy_id: string; readonly name: string } | null } | null;
}

type PositionFilter = 'current' | 'history';

function PnlText({ paise }: { readonly paise: number }) {
  return <Text size="sm" c={paise > 0 ? 'teal' : paise < 0 ? 'red' : 'inherit'}>{formatRupees(paise)}</Text>;
}

function PositionsTable({ rows, filter }: { readonly rows: readonly PositionRow[]; readonly filter: PositionFilter }) {
  if (rows.length === 0) {
    return <Text c="dimmed">{filter === 'current' ? 'No open positions.' : 'No closed positions yet.'}</Text>;
  }
  const realised = rows.reduce((sum, row) => sum + Number(row.realised_pnl_paise), 0);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Text size="sm" c="dimmed">Realised P&amp;L of these {rows.length} positions:</Text>
        <PnlText paise={realised} />
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Instrument</Table.Th>
              <Table.Th ta="right">Quantity</Table.Th>
              <Table.Th ta="right">Average price</Table.Th>
              <Table.Th ta="right">Realised P&amp;L</Table.Th>
              <Table.Th>Strategy</Table.Th>
              <Table.Th>Run</Table.Th>
              <Table.Th>Updated</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={`${row.run_id}:${row.instrument_id}`}>
                <Table.Td>
                  {row.instrument ? `${row.instrument.trading_symbol}` : `#${row.instrument_id}`}
                  {row.instrument && <Text span size="xs" c="dimmed"> {row.instrument.exchange}</Text>}
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" c={row.net_quantity < 0 ? 'red' : 'inherit'}>{row.net_quantity}</Text>
                </Table.Td>
                <Table.Td ta="right">{row.net_quantity === 0 ? '—' : formatRupees(Number(row.average_price_paise))}</Table.Td>
                <Table.Td ta="right"><PnlText paise={Number(row.realised_pnl_paise)} /></Table.Td>
                <Table.Td>
                  {row.run?.strategy
                    ? <Anchor component={Link} to={`/strategies/${row.run.strategy.strategy_id}`} size="sm">{row.run.strategy.name}</Anchor>
                    : <Text size="sm" c="dimmed">Manual</Text>}
                </Table.Td>
                <Table.Td>{row.run ? <Badge variant="light" color={row.run.kind === 'LIVE' ? 'orange' : 'gray'}>{row.run.kind}</Badge> : '—'}</Table.Td>
                <Table.Td>{dateTimeText(row.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

export function Component() {
  const { userId } = useSubject();
  const [filter, setFilter] = useState<PositionFilter>('current');
  const where = useMemo(() => ({
    run: { user_id: { _eq: userId ?? '' } },
    net_quantity: filter === 'current' ? { _neq: 0 } : { _eq: 0 },
  }), [userId, filter]);
  const [result] = useQuery<{ positions: PositionRow[] }>({ query: POSITIONS, variables: { where }, pause: userId === undefined });
  return (
    <Stack gap="md">
      <Title order={2}>Positions</Title>
      <SegmentedControl<PositionFilter>
        aria-label="Current or past positions"
        w="fit-content"
        value={filter}
        onChange={setFilter}
        data={[{ value: 'current', label: 'Current' }, { value: 'history', label: 'History' }]}
      />
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the positions">
        <PositionsTable rows={result.data?.positions ?? []} filter={filter} />
      </QueryState>
    </Stack>
  );
}

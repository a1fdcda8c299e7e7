// /reports (docs/PRODUCT.md sections 2 and 6: manager, superadmin): for each managed user (docs/PRODUCT.md section 7's
// managers query) the P&L of their paper and live runs over a date range, from the daily P&L table
// (backtests are research, never account P&L).
import { Alert, Group, Loader, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { formatRupees, MISSING_VALUE } from '../../format/format';
import { asIsoDate, defaultDateRange, istToday } from '../../format/date-ranges';
import { useManagedUsers } from './research/managed-users';
import { QueryError } from './research/query-feedback';
import { TRADING_RUN_KINDS, useUserPnl } from './research/user-pnl';

const ALL_KINDS = 'ALL';
const KIND_OPTIONS = [{ value: ALL_KINDS, label: 'Paper and live' }, ...TRADING_RUN_KINDS.map((kind) => ({ value: kind, label: kind }))];

export function Component() {
  const initial = useMemo(() => defaultDateRange(), []);
  const [from, setFrom] = useState<string>(initial.from);
  const [to, setTo] = useState<string>(initial.to);
  const [kind, setKind] = useState<string>(ALL_KINDS);
  const managed = useManagedUsers();
  const userIds = useMemo(() => managed.users.map((user) => user.userId), [managed.users]);
  const kinds = useMemo(() => (kind === ALL_KINDS ? [...TRADING_RUN_KINDS] : [kind]), [kind]);
  const validRange = asIsoDate(from) !== undefined && asIsoDate(to) !== undefined && from <= to;
  const pnl = useUserPnl({ userIds, from, to, kinds, pause: !validRange });

  const totals = managed.users.reduce((sum, user) => {
    const row = pnl.byUser?.get(user.userId);
    return { pnl: sum.pnl + (row?.netPnlPaise ?? 0), orders: sum.orders + (row?.orders ?? 0), strategies: sum.strategies + (row?.strategies ?? 0) };
  }, { pnl: 0, orders: 0, strategies: 0 });

  return (
    <Stack gap="md">
      <Title order={2}>Reports</Title>
      <Group align="flex-end" gap="md">
        <TextInput label="From" type="date" w={170} value={from} max={to} onChange={(event) => setFrom(event.currentTarget.value)} />
        <TextInput label="To" type="date" w={170} value={to} min={from} max={istToday()} onChange={(event) => setTo(event.currentTarget.value)} />
        <Select label="Runs" w={160} allowDeselect={false} data={KIND_OPTIONS} value={kind} onChange={(value) => value !== null && setKind(value)} />
        {(managed.fetching || pnl.fetching) && <Loader size="sm" />}
      </Group>
      {!validRange && <Alert color="yellow" variant="light">Choose a start date on or before the end date.</Alert>}
      <QueryError error={managed.error} title="Could not load the managed users" />
      <QueryError error={pnl.error} title="Could not load the P&L" />
      {!managed.fetching && managed.error === undefined && managed.users.length === 0 && (
        <Text c="dimmed">{managed.showAll ? 'You manage no users.' : 'None of the users you manage has an active broker account (turn on "show all users" to include them).'}</Text>
      )}
      {managed.users.length > 0 && (
        <Table striped withTableBorder highlightOnHover>
          <Table.Thead>
            <Table.Tr><Table.Th>User</Table.Th><Table.Th ta="right">Strategies</Table.Th><Table.Th ta="right">Net P&L</Table.Th><Table.Th ta="right">Orders</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {managed.users.map((user) => {
              const row = pnl.byUser?.get(user.userId);
              return (
                <Table.Tr key={user.userId}>
                  <Table.Td>{user.name}</Table.Td>
                  <Table.Td ta="right">{row?.strategies ?? '…'}</Table.Td>
                  <Table.Td ta="right" c={row === undefined || row.days === 0 ? 'dimmed' : row.netPnlPaise < 0 ? 'red' : 'teal'}>
                    {row === undefined ? '…' : row.days === 0 ? 'no P&L' : formatRupees(row.netPnlPaise)}
                  </Table.Td>
                  <Table.Td ta="right">{row === undefined ? '…' : row.days === 0 ? MISSING_VALUE : row.orders.toLocaleString('en-IN')}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          {pnl.byUser !== undefined && (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>Total</Table.Th><Table.Th ta="right">{totals.strategies}</Table.Th>
                <Table.Th ta="right">{formatRupees(totals.pnl)}</Table.Th><Table.Th ta="right">{totals.orders.toLocaleString('en-IN')}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      )}
      <Text size="xs" c="dimmed">Net P&L and orders are the sums of the daily P&L rows of each user's paper and live runs (never backtests) between the two dates (IST), both included.</Text>
    </Stack>
  );
}

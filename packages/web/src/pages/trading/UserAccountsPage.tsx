// /userAccounts (docs/PRODUCT.md sections 2, 3 and 6: manager, superadmin, backtest): the broker accounts of
// each managed user (or, for a user who manages nobody, their own) with the day's P&L of the
// selected date. docs/PRODUCT.md section 3's risk columns (enableSl, trail_enabled, trail_mode, sl,
// default_sl, trail_tsl, enableTarget, tgt, default_tgt, trail_ttg) have no storage in the data
// model yet, so they are named in a note instead of shown.
import { Alert, Badge, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { formatRupees, MISSING_VALUE } from '../../format/format';
import { asIsoDate, defaultDateRange, istToday } from '../../format/date-ranges';
import { brokerInvestmentPaise, useManagedUsers, type BrokerAccount, type ManagedUser } from './research/managed-users';
import { QueryError } from './research/query-feedback';
import { useActingUserId } from './research/use-window-starts';
import { TRADING_RUN_KINDS, useUserPnl, type UserPnl } from './research/user-pnl';

/** docs/PRODUCT.md section 3's user-accounts columns that no table stores yet. */
const UNSTORED_COLUMNS = ['enableSl', 'trail_enabled', 'trail_mode', 'sl', 'default_sl', 'trail_tsl', 'enableTarget', 'tgt', 'default_tgt', 'trail_ttg'] as const;

const OWN_ACCOUNTS_QUERY = `
  query OwnBrokerAccounts($user_id: uuid!) {
    users_by_pk(user_id: $user_id) {
      user_id name
      user_brokers(order_by: { broker: asc }) { user_broker_id broker client_id active investment_amt_paise investment_history }
    }
  }`;

interface OwnUserRow { readonly user_id: string; readonly name: string; readonly user_brokers: BrokerAccount[] }

function AccountRows({ user, pnl }: { readonly user: ManagedUser; readonly pnl: UserPnl | undefined }) {
  const accounts = user.brokers.length > 0 ? user.brokers : [undefined];
  const span = accounts.length;
  return (
    <>
      {accounts.map((account, index) => (
        <Table.Tr key={account?.user_broker_id ?? `${user.userId}-none`}>
          {index === 0 && <Table.Td rowSpan={span} fw={500}>{user.name}</Table.Td>}
          <Table.Td>{account?.broker ?? <Text span c="dimmed">No broker account</Text>}</Table.Td>
          <Table.Td>{account?.client_id ?? ''}</Table.Td>
          <Table.Td>{account === undefined ? '' : <Badge variant="light" color={account.active ? 'teal' : 'gray'}>{account.active ? 'Active' : 'Inactive'}</Badge>}</Table.Td>
          <Table.Td ta="right">{account === undefined ? '' : formatRupees(brokerInvestmentPaise(account))}</Table.Td>
          {index === 0 && (
            <>
              <Table.Td rowSpan={span} ta="right" c={pnl === undefined || pnl.days === 0 ? 'dimmed' : pnl.netPnlPaise < 0 ? 'red' : 'teal'}>
                {pnl === undefined ? MISSING_VALUE : pnl.days === 0 ? 'no P&L' : formatRupees(pnl.netPnlPaise)}
              </Table.Td>
              <Table.Td rowSpan={span} ta="right">{pnl === undefined || pnl.days === 0 ? MISSING_VALUE : pnl.orders}</Table.Td>
            </>
          )}
        </Table.Tr>
      ))}
    </>
  );
}

export function Component() {
  const [selectedDate, setSelectedDate] = useState<string>(() => defaultDateRange().to);
  const managed = useManagedUsers();
  const actingUserId = useActingUserId();
  const ownMode = !managed.fetching && managed.error === undefined && managed.linkCount === 0;
  const [own] = useQuery<{ users_by_pk: OwnUserRow | null }>({ query: OWN_ACCOUNTS_QUERY, variables: { user_id: actingUserId ?? '' }, pause: !ownMode || actingUserId === undefined });
  const users: ManagedUser[] = useMemo(() => {
    if (!ownMode) return managed.users;
    const row = own.data?.users_by_pk;
    return row ? [{ userId: row.user_id, name: row.name, brokers: row.user_brokers }] : [];
  }, [ownMode, managed.users, own.data]);
  const userIds = useMemo(() => users.map((user) => user.userId), [users]);
  const date = asIsoDate(selectedDate);
  const kinds = useMemo(() => [...TRADING_RUN_KINDS], []);
  const pnl = useUserPnl({ userIds, from: date ?? '', to: date ?? '', kinds, pause: date === undefined });

  return (
    <Stack gap="md">
      <Title order={2}>User Accounts</Title>
      <Group align="flex-end" gap="md">
        <TextInput label="Date" type="date" w={170} value={selectedDate} max={istToday()} onChange={(event) => setSelectedDate(event.currentTarget.value)} />
        {(managed.fetching || own.fetching || pnl.fetching) && <Loader size="sm" />}
      </Group>
      <QueryError error={managed.error ?? own.error} title="Could not load the accounts" />
      <QueryError error={pnl.error} title="Could not load the day's P&L" />
      {ownMode && <Text size="sm" c="dimmed">You manage no users: these are your own broker accounts.</Text>}
      {!ownMode && !managed.fetching && users.length === 0 && managed.linkCount > 0 && (
        <Text c="dimmed">None of the users you manage has an active broker account (turn on "show all users" to include them).</Text>
      )}
      {users.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table withTableBorder withColumnBorders>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th><Table.Th>Broker</Table.Th><Table.Th>Client ID</Table.Th><Table.Th>Status</Table.Th>
                <Table.Th ta="right">Investment</Table.Th><Table.Th ta="right">P&L on {date ?? MISSING_VALUE}</Table.Th><Table.Th ta="right">Orders</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => <AccountRows key={user.userId} user={user} pnl={pnl.byUser?.get(user.userId)} />)}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Alert color="gray" variant="light" title="Risk settings not stored yet">
        Stop-loss, target and trailing settings ({UNSTORED_COLUMNS.join(', ')}) have no table in the data model yet, so they are not shown.
        P&L and orders are the day's totals of the user's runs from the daily P&L table; investment is the latest investment history entry, else the account's amount.
      </Alert>
    </Stack>
  );
}

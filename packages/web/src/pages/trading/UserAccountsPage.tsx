// /userAccounts (docs/PRODUCT.md sections 2, 3 and 6: manager, superadmin, backtest): one row per broker
// account of each managed user (or, for a user who manages nobody, their own) with docs/PRODUCT.md
// section 3's risk columns (enableSl, trail_enabled, trail_mode, sl, default_sl, trail_tsl,
// enableTarget, tgt, default_tgt, trail_ttg: stored per account, enforced by the runtime on the
// account's PAPER and LIVE runs) and the account's day on `selectedDate`: day P&L after charges,
// open positions, investment and broker session state as the runtime recorded them, and a halt
// when a stop or target squared the account off.
//
// - Editing: a manager edits the accounts of the users they manage, a superadmin any; inline per
//   cell, or one column for the selected rows (user-accounts/BulkEdit.tsx). The backtest role and
//   a manager's own accounts are read-only (the server refuses them too). Read-only in update mode.
// - Live: settings and days are subscriptions; a past date shows that day's stored record.
import { Alert, Badge, Checkbox, Group, Loader, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { useAuthState } from '../../auth/auth-service';
import { useReadOnly } from '../../app/update-mode';
import { formatRupees, MISSING_VALUE } from '../../format/format';
import { asIsoDate, defaultDateRange, istToday } from '../../format/date-ranges';
import { useManagedUsers, type BrokerAccount, type ManagedUser } from './research/managed-users';
import { QueryError } from './research/query-feedback';
import { useActingUserId } from './research/use-window-starts';
import { BulkEdit } from './user-accounts/BulkEdit';
import { RiskCell } from './user-accounts/RiskCell';
import { RISK_COLUMNS, riskOf, SESSION_STATE_TEXT, type AccountRisk, type TrailMode } from './user-accounts/risk-columns';
import { useAccountRisk, useUpdateAccountRisk, type AccountDayRow, type RiskChanges } from './user-accounts/use-account-risk';

const OWN_ACCOUNTS_QUERY = `
  query OwnBrokerAccounts($user_id: uuid!) {
    users_by_pk(user_id: $user_id) {
      user_id name
      user_brokers(order_by: { broker: asc }) { user_broker_id broker client_id active investment_amt_paise investment_history }
    }
  }`;

interface OwnUserRow { readonly user_id: string; readonly name: string; readonly user_brokers: BrokerAccount[] }

/** The roles that change risk settings (the server's set_account_risk roles). */
const EDITING_ROLES = ['manager', 'superadmin'];

/** Badges keep their words: the column grows instead (the table scrolls sideways). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
const NO_SHRINK = { flexShrink: 0, overflow: 'visible' } as const;

interface AccountLine {
  readonly user: ManagedUser;
  readonly account: BrokerAccount;
  readonly first: boolean;
  readonly span: number;
}

function DayFigures({ day }: { readonly day: AccountDayRow | undefined }) {
  if (day === undefined) {
    return (
      <>
        <Table.Td ta="right" c="dimmed" data-testid="account-day-pnl">{MISSING_VALUE}</Table.Td>
        <Table.Td ta="right" c="dimmed" data-testid="account-open-positions">{MISSING_VALUE}</Table.Td>
        <Table.Td ta="right" c="dimmed">{MISSING_VALUE}</Table.Td>
        <Table.Td c="dimmed">{MISSING_VALUE}</Table.Td>
        <Table.Td />
      </>
    );
  }
  const pnl = Number(day.pnl_paise);
  const session = SESSION_STATE_TEXT[day.session_state] ?? { label: day.session_state, color: 'gray' };
  return (
    <>
      <Table.Td ta="right" {...(pnl === 0 ? {} : { c: pnl < 0 ? 'red' : 'teal' })} data-testid="account-day-pnl">{formatRupees(pnl)}</Table.Td>
      <Table.Td ta="right" data-testid="account-open-positions">{day.open_positions}</Table.Td>
      <Table.Td ta="right">{formatRupees(Number(day.investment_paise))}</Table.Td>
      <Table.Td style={NO_WRAP}><Badge variant="light" color={session.color} style={NO_SHRINK}>{session.label}</Badge></Table.Td>
      <Table.Td style={NO_WRAP}>
        {day.halt_message !== null && (
          <Tooltip label={day.halt_message} multiline w={320} withinPortal>
            <Badge color="red" variant="filled" data-testid="account-halted" style={NO_SHRINK}>Squared off: {day.halt_kind?.toLowerCase().replace('_', ' ')}</Badge>
          </Tooltip>
        )}
      </Table.Td>
    </>
  );
}

export function Component() {
  const [selectedDate, setSelectedDate] = useState<string>(() => defaultDateRange().to);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const managed = useManagedUsers();
  const actingUserId = useActingUserId();
  const role = useAuthState((snapshot) => snapshot.context.role);
  const readOnly = useReadOnly();
  const ownMode = !managed.fetching && managed.error === undefined && managed.linkCount === 0;
  const [own] = useQuery<{ users_by_pk: OwnUserRow | null }>({ query: OWN_ACCOUNTS_QUERY, variables: { user_id: actingUserId ?? '' }, pause: !ownMode || actingUserId === undefined });
  const users: ManagedUser[] = useMemo(() => {
    if (!ownMode) return managed.users;
    const row = own.data?.users_by_pk;
    return row ? [{ userId: row.user_id, name: row.name, brokers: row.user_brokers }] : [];
  }, [ownMode, managed.users, own.data]);
  const lines: AccountLine[] = useMemo(() => users.flatMap((user) => user.brokers.map((account, index) => ({
    user, account, first: index === 0, span: user.brokers.length,
  }))), [users]);
  const accountIds = useMemo(() => lines.map((line) => line.account.user_broker_id), [lines]);
  const date = asIsoDate(selectedDate);
  const today = istToday();
  const risk = useAccountRisk(accountIds, date);
  const updater = useUpdateAccountRisk();
  // A manager edits the users they manage (not their own accounts); a superadmin any account.
  const editable = !readOnly && role !== undefined && role !== null && EDITING_ROLES.includes(role) && (role === 'superadmin' || !ownMode);
  const riskBy = (id: string): AccountRisk => riskOf(risk.settings.get(id), today);
  const selectedIds = accountIds.filter((id) => selected.has(id));
  const modes = new Set<TrailMode>(selectedIds.map((id) => riskBy(id).trail_mode));
  const bulkMode: TrailMode | 'MIXED' = modes.size > 1 ? 'MIXED' : ([...modes][0] ?? 'POINTS');
  const toggle = (id: string, on: boolean): void => setSelected((previous) => {
    const next = new Set(previous);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  const allSelected = accountIds.length > 0 && selectedIds.length === accountIds.length;
  const usersWithoutAccounts = users.filter((user) => user.brokers.length === 0);

  return (
    <Stack gap="md">
      <Title order={2}>User Accounts</Title>
      <Group align="flex-end" gap="md">
        <TextInput label="Date" type="date" w={170} value={selectedDate} max={today} onChange={(event) => setSelectedDate(event.currentTarget.value)} data-testid="selected-date" />
        {(managed.fetching || own.fetching || risk.fetching) && <Loader size="sm" />}
      </Group>
      <QueryError error={managed.error ?? own.error} title="Could not load the accounts" />
      <QueryError error={risk.error} title="Could not load the accounts' risk settings and day" />
      {ownMode && <Text size="sm" c="dimmed">You manage no users: these are your own broker accounts.</Text>}
      {!ownMode && !managed.fetching && users.length === 0 && managed.linkCount > 0 && (
        <Text c="dimmed">None of the users you manage has an active broker account (turn on "show all users" to include them).</Text>
      )}
      {editable && lines.length > 0 && (
        <BulkEdit selected={selectedIds.length} mode={bulkMode} onApply={(changes: RiskChanges) => updater.update(selectedIds, changes)} />
      )}
      {lines.length > 0 && (
        <Table.ScrollContainer minWidth={1500}>
          <Table withTableBorder withColumnBorders striped data-testid="user-accounts-table">
            <Table.Thead>
              <Table.Tr>
                {editable && (
                  <Table.Th>
                    <Checkbox aria-label="Select every account" checked={allSelected} indeterminate={selectedIds.length > 0 && !allSelected}
                      onChange={(event) => setSelected(event.currentTarget.checked ? new Set(accountIds) : new Set())} />
                  </Table.Th>
                )}
                <Table.Th>User</Table.Th><Table.Th>Broker</Table.Th><Table.Th>Client ID</Table.Th>
                <Table.Th ta="right">Day P&L</Table.Th><Table.Th ta="right">Open positions</Table.Th><Table.Th ta="right">Investment</Table.Th>
                <Table.Th>Broker session</Table.Th><Table.Th>Account stop</Table.Th>
                {RISK_COLUMNS.map((column) => <Table.Th key={column.key} ta={column.kind === 'level' ? 'right' : undefined}>{column.specKey}</Table.Th>)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map(({ user, account, first, span }) => {
                const id = account.user_broker_id;
                const settings = riskBy(id);
                return (
                  <Table.Tr key={id} data-testid="account-row" data-client-id={account.client_id}>
                    {editable && (
                      <Table.Td>
                        <Checkbox aria-label={`Select ${account.client_id}`} checked={selected.has(id)} onChange={(event) => toggle(id, event.currentTarget.checked)} />
                      </Table.Td>
                    )}
                    {first && <Table.Td rowSpan={span} fw={500}>{user.name}</Table.Td>}
                    <Table.Td>{account.broker}</Table.Td>
                    <Table.Td style={NO_WRAP}>
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{account.client_id}</Text>
                        {!account.active && <Badge size="xs" variant="light" color="gray" style={NO_SHRINK}>Inactive</Badge>}
                      </Group>
                    </Table.Td>
                    <DayFigures day={risk.days.get(id)} />
                    {RISK_COLUMNS.map((column) => (
                      <Table.Td key={column.key}>
                        <RiskCell column={column} risk={settings} editable={editable} account={account.client_id}
                          onChange={(changes) => updater.update([id], changes)} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {usersWithoutAccounts.length > 0 && (
        <Text size="sm" c="dimmed">No broker account: {usersWithoutAccounts.map((user) => user.name).join(', ')}.</Text>
      )}
      <Alert color="gray" variant="light" title="How the account stop works">
        Levels in POINTS are rupees of the account's day P&L (realised and unrealised, after charges, of its PAPER and LIVE runs); in PERCENT,
        a percent of its investment. sl and tgt are today's levels; every new day starts from default_sl and default_tgt. When the day P&L
        reaches -sl or tgt (or, with trailing on, falls trail_tsl below its peak, or trail_ttg below its peak after the target), the account's
        positions are squared off and it takes no new entries that day. The day's figures are the runtime's record of {date ?? MISSING_VALUE}{' '}
        ({MISSING_VALUE}: no run traded for the account that day).
      </Alert>
    </Stack>
  );
}

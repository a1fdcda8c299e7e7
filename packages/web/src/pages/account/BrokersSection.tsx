// Broker accounts of the acting user (user_brokers): list, add, toggle active, edit the investment
// (integer paise in the database, rupees on screen), set the API secret, delete, and the broker's
// daily login, whose outcome comes back here in words, as does the broker's verdict on whose a
// client id is (a row the broker gave to another account is switched off and says why), and, for a
// Zerodha account, ending the day's session here and at Kite (disconnect_broker).
import { Alert, Anchor, Badge, Button, Group, Loader, Modal, NumberInput, Paper, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import { paiseToRupees } from '@vyuha/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { useReadOnly } from '../../app/update-mode';
import { istToday } from '../../format/date-ranges';
import { formatRupees } from '../../format/format';
import { rupeesFieldToPaise } from '../../format/money-input';
import { SETTINGS_UPDATED, graphqlErrorMessage } from './account-helpers';
import { BrokerAddForm } from './BrokerAddForm';
import type { BrokerLoginOutcome } from './broker-login-outcome';
import { claimedElsewhereMessage, ownershipStatus } from './broker-ownership';
import { BrokerLoginNotice } from './BrokerLoginNotice';
import { BrokerSecretDialog } from './BrokerSecretDialog';
import {
  BROKERS_QUERY, DELETE_BROKER_MUTATION, DISCONNECT_BROKER_MUTATION, UPDATE_BROKER_MUTATION, activeInvestmentTotalPaise,
  brokerLoginPath, brokerLogoutNotice, brokerLogoutQuestion, canLogOutOfBroker, effectiveInvestmentPaise, withHistoryEntry,
  type BrokersData, type DisconnectBrokerAnswer, type UserBrokerRow,
} from './broker-accounts';

interface InvestmentDialogProps {
  readonly row: UserBrokerRow | undefined;
  readonly onClose: () => void;
  readonly onSaved: () => void;
}

function InvestmentDialog({ row, onClose, onSaved }: InvestmentDialogProps) {
  const [amount, setAmount] = useState<number | string>('');
  const [state, update] = useMutation(UPDATE_BROKER_MUTATION);

  useEffect(() => {
    if (row) setAmount(paiseToRupees(effectiveInvestmentPaise(row)));
  }, [row]);

  const typed = rupeesFieldToPaise(amount);
  const paise = typed.ok ? typed.value : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row || paise === undefined) return;
    const set = {
      investment_amt_paise: paise,
      investment_history: withHistoryEntry(row.investment_history, { date: istToday(), amount_paise: paise }),
    };
    const result = await update({ id: row.user_broker_id, set });
    if (result.error) {
      showToast('error', graphqlErrorMessage(result.error));
      return;
    }
    showToast('success', SETTINGS_UPDATED);
    onSaved();
  };

  return (
    <Modal opened={row !== undefined} onClose={onClose} title={row ? `Investment: ${row.broker_info?.name ?? row.broker} ${row.client_id}` : ''}>
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <NumberInput
            label="Investment (₹)"
            description="Recorded in the account's investment history from today"
            min={0}
            decimalScale={2}
            thousandSeparator=","
            thousandsGroupStyle="lakh"
            allowNegative={false}
            value={amount}
            onChange={setAmount}
            error={amount !== '' && !typed.ok ? `Investment ${typed.error}` : undefined}
            data-autofocus
          />
          {row && row.investment_history.length > 0 && (
            <Text size="xs" c="dimmed">
              History: {row.investment_history.map((entry) => `${entry.date} ${formatRupees(Number(entry.amount_paise))}`).join(' · ')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={state.fetching} disabled={paise === undefined || amount === ''}>Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** "Log out of Zerodha": asks first, then ends the session; the server's answer is the notification. */
function BrokerLogoutButton({ row, readOnly }: { readonly row: UserBrokerRow; readonly readOnly: boolean }) {
  const [state, disconnect] = useMutation<{ disconnect_broker: DisconnectBrokerAnswer }>(DISCONNECT_BROKER_MUTATION);

  const logOut = async () => {
    const accepted = await confirm({
      title: 'Log out of Zerodha',
      message: brokerLogoutQuestion(row),
      acceptLabel: 'Log out',
      rejectLabel: 'Cancel',
      danger: true,
    });
    if (!accepted) return;
    const result = await disconnect({ id: row.user_broker_id });
    const answer = result.data?.disconnect_broker;
    if (result.error || !answer) {
      showToast('error', result.error ? graphqlErrorMessage(result.error) : `No answer ending the session of ${row.client_id}`);
      return;
    }
    const notice = brokerLogoutNotice(answer);
    showToast(notice.severity, notice.text);
  };

  return (
    <Button size="compact-sm" variant="light" color="orange" onClick={() => void logOut()} loading={state.fetching} disabled={readOnly}
      data-testid={`broker-logout-${row.client_id}`}>
      Log out of Zerodha
    </Button>
  );
}

function BrokerRow({ row, readOnly, onEdit, onSetSecret, onChanged }: {
  readonly row: UserBrokerRow;
  readonly readOnly: boolean;
  readonly onEdit: (row: UserBrokerRow) => void;
  readonly onSetSecret: (row: UserBrokerRow) => void;
  readonly onChanged: () => void;
}) {
  const status = ownershipStatus(row);
  // The broker gave this client id to another account: it stays off until a login here takes it back.
  const claimedElsewhere = row.ownership === 'claimed_elsewhere';
  const [updateState, update] = useMutation(UPDATE_BROKER_MUTATION);
  const [, remove] = useMutation(DELETE_BROKER_MUTATION);

  const toggle = async (active: boolean) => {
    const result = await update({ id: row.user_broker_id, set: { active } });
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
    else showToast('success', SETTINGS_UPDATED);
    onChanged();
  };

  const deleteRow = async () => {
    const accepted = await confirm({
      title: 'Delete broker account',
      message: `Delete the ${row.broker_info?.name ?? row.broker} account ${row.client_id}? Strategies stop trading through it.`,
      acceptLabel: 'Delete',
      rejectLabel: 'Cancel',
      danger: true,
    });
    if (!accepted) return;
    const result = await remove({ id: row.user_broker_id });
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
    else showToast('success', SETTINGS_UPDATED);
    onChanged();
  };

  return (
    <Table.Tr>
      <Table.Td>{row.broker_info?.name ?? row.broker}</Table.Td>
      <Table.Td ff="monospace">{row.client_id}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', minWidth: 180 }}>
        <Tooltip label={status.description} multiline w={260}>
          <Badge color={status.color} variant="light" style={{ maxWidth: 'none', width: 'max-content' }} data-testid={`broker-status-${row.client_id}`}>{status.label}</Badge>
        </Tooltip>
      </Table.Td>
      <Table.Td ff="monospace">{row.api_key ?? '—'}</Table.Td>
      <Table.Td>
        <Switch
          checked={row.active}
          onChange={(event) => void toggle(event.currentTarget.checked)}
          disabled={readOnly || updateState.fetching || claimedElsewhere}
          aria-label={`Active: ${row.broker} ${row.client_id}`}
        />
      </Table.Td>
      <Table.Td ta="right">{formatRupees(effectiveInvestmentPaise(row))}</Table.Td>
      <Table.Td>
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={() => onEdit(row)} disabled={readOnly}>Edit investment</Button>
          <Button size="compact-sm" variant="light" onClick={() => onSetSecret(row)} disabled={readOnly}>Set API secret</Button>
          <Button size="compact-sm" component="a" href={brokerLoginPath(row)} data-testid={`broker-login-${row.client_id}`}>Log in to broker</Button>
          {canLogOutOfBroker(row) && <BrokerLogoutButton row={row} readOnly={readOnly} />}
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => void deleteRow()} disabled={readOnly}>Delete</Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The login's outcome and every row another account took at the broker, above the table. */
function BrokerNotices({ rows, brokers, loginOutcome, onDismissLoginOutcome }: {
  readonly rows: readonly UserBrokerRow[];
  readonly brokers: BrokersData['brokers'];
  readonly loginOutcome: BrokerLoginOutcome | undefined;
  readonly onDismissLoginOutcome: () => void;
}) {
  const claimed = rows.filter((row) => row.ownership === 'claimed_elsewhere');
  return (
    <>
      {loginOutcome && <BrokerLoginNotice outcome={loginOutcome} brokers={brokers} onClose={onDismissLoginOutcome} />}
      {claimed.map((row) => (
        <Alert key={row.user_broker_id} color="red" title={`${row.broker_info?.name ?? row.broker} account ${row.client_id} is claimed by another account`} data-testid="broker-claimed-elsewhere">
          {claimedElsewhereMessage({ brokerName: row.broker_info?.name ?? row.broker, clientId: row.client_id })}
        </Alert>
      ))}
    </>
  );
}

export function BrokersSection({ userId, loginOutcome, onDismissLoginOutcome }: {
  readonly userId: string;
  /** How the last broker login ended (the route returns to this tab with it), until dismissed. */
  readonly loginOutcome?: BrokerLoginOutcome | undefined;
  readonly onDismissLoginOutcome?: () => void;
}) {
  const readOnly = useReadOnly();
  const [result, reexecute] = useQuery<BrokersData>({ query: BROKERS_QUERY, variables: { userId } });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserBrokerRow | undefined>(undefined);
  const [settingSecret, setSettingSecret] = useState<UserBrokerRow | undefined>(undefined);

  useEffect(() => {
    if (result.error) showToast('error', graphqlErrorMessage(result.error));
  }, [result.error]);

  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  const rows = result.data?.user_brokers ?? [];
  const brokers = result.data?.brokers ?? [];

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={3}>Broker accounts</Title>
        {!adding && <Button onClick={() => setAdding(true)} disabled={readOnly}>Add broker account</Button>}
      </Group>
      <Stack gap="md">
        {/* After the first answer, so the notice names the broker as the table does. */}
        {(result.data !== undefined || result.error !== undefined) && (
          <BrokerNotices rows={rows} brokers={brokers} loginOutcome={loginOutcome} onDismissLoginOutcome={onDismissLoginOutcome ?? (() => undefined)} />
        )}
        {adding && (
          <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
            <BrokerAddForm
              brokers={brokers}
              disabled={readOnly}
              onAdded={() => {
                setAdding(false);
                refresh();
              }}
              onCancel={() => setAdding(false)}
            />
          </Paper>
        )}
        {result.fetching && !result.data ? <Loader size="sm" aria-label="Loading broker accounts" /> : rows.length === 0 ? (
          <Text size="sm" c="dimmed">No broker accounts yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={1000}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Broker</Table.Th>
                  <Table.Th>Client id</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>API key</Table.Th>
                  <Table.Th>Active</Table.Th>
                  <Table.Th ta="right">Investment</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => <BrokerRow key={row.user_broker_id} row={row} readOnly={readOnly} onEdit={setEditing} onSetSecret={setSettingSecret} onChanged={refresh} />)}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th colSpan={5}>Total of active accounts</Table.Th>
                  <Table.Th ta="right">{formatRupees(activeInvestmentTotalPaise(rows))}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        )}
        <Alert color="gray" variant="light">
          <Text size="sm">
            "Log in to broker" opens the broker's daily login for that account (only Zerodha logs in today); the broker's
            answer also confirms the client id is yours. "Log out of Zerodha" ends that day's session here and at Kite.
            API secrets are never shown once saved.{' '}
            <Anchor component={Link} to="/brokersInfo" size="sm">How to get broker API keys</Anchor>
          </Text>
        </Alert>
      </Stack>
      <BrokerSecretDialog row={settingSecret} onClose={() => setSettingSecret(undefined)} />
      <InvestmentDialog
        row={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          refresh();
        }}
      />
    </Paper>
  );
}

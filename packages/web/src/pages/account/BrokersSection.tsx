// Broker accounts of the acting user (user_brokers): list, add, toggle active, edit the investment
// (integer paise in the database, rupees on screen), delete, and the broker's daily login.
import { Alert, Anchor, Button, Group, Loader, Modal, NumberInput, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { useReadOnly } from '../../app/update-mode';
import { formatRupees } from '../../format/format';
import { SETTINGS_UPDATED, graphqlErrorMessage, todayInIndia } from './account-helpers';
import { BrokerAddForm } from './BrokerAddForm';
import {
  BROKERS_QUERY, DELETE_BROKER_MUTATION, UPDATE_BROKER_MUTATION, activeInvestmentTotalPaise, brokerLoginPath,
  effectiveInvestmentPaise, paiseToRupees, rupeesToPaise, withHistoryEntry, type BrokersData, type UserBrokerRow,
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

  const paise = rupeesToPaise(amount);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!row || paise === undefined) return;
    const set = {
      investment_amt_paise: paise,
      investment_history: withHistoryEntry(row.investment_history, { date: todayInIndia(), amount_paise: paise }),
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
            error={amount !== '' && paise === undefined ? 'Enter an amount in rupees, 0 or more' : undefined}
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

function BrokerRow({ row, readOnly, onEdit, onChanged }: {
  readonly row: UserBrokerRow;
  readonly readOnly: boolean;
  readonly onEdit: (row: UserBrokerRow) => void;
  readonly onChanged: () => void;
}) {
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
      <Table.Td ff="monospace">{row.api_key ?? '—'}</Table.Td>
      <Table.Td>
        <Switch
          checked={row.active}
          onChange={(event) => void toggle(event.currentTarget.checked)}
          disabled={readOnly || updateState.fetching}
          aria-label={`Active: ${row.broker} ${row.client_id}`}
        />
      </Table.Td>
      <Table.Td ta="right">{formatRupees(effectiveInvestmentPaise(row))}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button size="compact-sm" variant="light" onClick={() => onEdit(row)} disabled={readOnly}>Edit investment</Button>
          <Button size="compact-sm" component="a" href={brokerLoginPath(row)}>Log in to broker</Button>
          <Button size="compact-sm" variant="subtle" color="red" onClick={() => void deleteRow()} disabled={readOnly}>Delete</Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function BrokersSection({ userId }: { readonly userId: string }) {
  const readOnly = useReadOnly();
  const [result, reexecute] = useQuery<BrokersData>({ query: BROKERS_QUERY, variables: { userId } });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserBrokerRow | undefined>(undefined);

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
          <Table.ScrollContainer minWidth={820}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Broker</Table.Th>
                  <Table.Th>Client id</Table.Th>
                  <Table.Th>API key</Table.Th>
                  <Table.Th>Active</Table.Th>
                  <Table.Th ta="right">Investment</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => <BrokerRow key={row.user_broker_id} row={row} readOnly={readOnly} onEdit={setEditing} onChanged={refresh} />)}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th colSpan={4}>Total of active accounts</Table.Th>
                  <Table.Th ta="right">{formatRupees(activeInvestmentTotalPaise(rows))}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        )}
        <Alert color="gray" variant="light">
          <Text size="sm">
            "Log in to broker" opens the broker's daily login for that account. API secrets are never shown once saved.{' '}
            <Anchor component={Link} to="/brokersInfo" size="sm">How to get broker API keys</Anchor>
          </Text>
        </Alert>
      </Stack>
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

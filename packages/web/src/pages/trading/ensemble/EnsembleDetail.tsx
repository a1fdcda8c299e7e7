// One ensemble's operations screen (/ensembleSync/{id}, administrator and superadmin): the drift
// per subscribed account (target, actual, drift per instrument and an in sync / drifted badge),
// the sync (preview the exact orders with their estimated price and charges, then apply that
// preview), the history of syncs with their orders, and the management of members and accounts.
// Dates (as of, history from) start at 2021-01-01 (docs/PRODUCT.md section 9), checked here and
// by the server. Amounts are paise from the server, shown in rupees. The figures reload when a
// position behind them changes (a GraphQL subscription on positions), not by polling.
import {
  Accordion, Alert, Badge, Button, Group, Modal, NumberInput, Paper, Select, Stack, Switch, Table, Text, TextInput, Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { showToast } from '../../../app/toast';
import { formatRupees, MISSING_VALUE } from '../../../format/format';
import { istToday } from '../../../format/date-ranges';
import { QueryError, errorMessage } from '../research/query-feedback';
import {
  APPLY_MUTATION, dateError, ENSEMBLE_DETAIL_QUERY, ENSEMBLE_POSITIONS_SUBSCRIPTION, MIN_ENSEMBLE_SYNC_DATE, PREVIEW_QUERY, REMOVE_ACCOUNT_MUTATION, REMOVE_MEMBER_MUTATION,
  SET_ACCOUNT_MUTATION, SET_MEMBER_MUTATION,
} from './ensemble-data';
import type { EnsembleAccount, EnsembleDetailData, EnsembleMember, SyncPreview, SyncRecord } from './ensemble-data';

function signed(quantity: number): string {
  return quantity > 0 ? `+${quantity}` : String(quantity);
}

function SyncBadge({ account }: { readonly account: EnsembleAccount }) {
  if (!account.active) return <Badge color="gray" data-testid="ensemble-account-badge">Inactive</Badge>;
  return account.in_sync
    ? <Badge color="teal" data-testid="ensemble-account-badge">In sync</Badge>
    : <Badge color="orange" data-testid="ensemble-account-badge">Drifted</Badge>;
}

function AccountEditor({ ensembleId, account, onDone }: { readonly ensembleId: string; readonly account: EnsembleAccount | undefined; readonly onDone: () => void }) {
  const [investment, setInvestment] = useState<string | number>(account === undefined ? '' : account.investment_paise / 100);
  const [mode, setMode] = useState<string | null>(account?.mode ?? 'PAPER');
  const [, save] = useMutation(SET_ACCOUNT_MUTATION);
  const [error, setError] = useState<string | undefined>(undefined);
  const rupees = typeof investment === 'number' ? investment : Number.NaN;
  const investmentError = Number.isFinite(rupees) && rupees > 0 ? undefined : 'Investment: an amount above ₹0';

  async function submit(): Promise<void> {
    if (account === undefined || investmentError !== undefined) return;
    const result = await save({ id: ensembleId, account: account.user_broker_id, investment: Math.round(rupees * 100), mode });
    if (result.error !== undefined) {
      setError(errorMessage(result.error));
      return;
    }
    showToast('success', `Account ${account.client_id} saved`);
    onDone();
  }

  return (
    <Modal opened={account !== undefined} onClose={onDone} title={`Account ${account?.client_id ?? ''}`}>
      <Stack gap="sm">
        {error !== undefined && <Alert color="red" data-testid="ensemble-account-error">{error}</Alert>}
        <NumberInput label="Investment (₹)" value={investment} onChange={setInvestment} min={0} decimalScale={2} thousandSeparator="," error={investmentError} />
        <Select label="Mode" data={['PAPER', 'LIVE']} value={mode} onChange={setMode} allowDeselect={false} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button onClick={() => void submit()} disabled={investmentError !== undefined}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Runs one change (a mutation), showing its error in words or a toast and the refreshed figures. */
function useChangeRunner(refresh: () => void): {
  error: string | undefined;
  run: (work: Promise<{ error?: Parameters<typeof errorMessage>[0] | undefined }>, done: string) => Promise<void>;
} {
  const [error, setError] = useState<string | undefined>(undefined);
  async function run(work: Promise<{ error?: Parameters<typeof errorMessage>[0] | undefined }>, done: string): Promise<void> {
    const result = await work;
    if (result.error !== undefined) {
      setError(errorMessage(result.error));
      return;
    }
    setError(undefined);
    showToast('success', done);
    refresh();
  }
  return { error, run };
}

function AccountsSection({ detail, refresh }: { readonly detail: EnsembleDetailData; readonly refresh: () => void }) {
  const [editing, setEditing] = useState<EnsembleAccount | undefined>(undefined);
  const [adding, setAdding] = useState<string | null>(null);
  const [investment, setInvestment] = useState<string | number>('');
  const [mode, setMode] = useState<string | null>('PAPER');
  const [, save] = useMutation(SET_ACCOUNT_MUTATION);
  const [, remove] = useMutation(REMOVE_ACCOUNT_MUTATION);
  const { error, run } = useChangeRunner(refresh);
  const rupees = typeof investment === 'number' ? investment : Number.NaN;


  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Accounts and drift</Title>
        {error !== undefined && <Alert color="red" data-testid="ensemble-accounts-error">{error}</Alert>}
        {detail.accounts.length === 0 && <Text size="sm" c="dimmed">No subscribed accounts yet.</Text>}
        {detail.accounts.map((account) => (
          <Paper key={account.user_broker_id} withBorder p="sm" data-testid="ensemble-account" data-client={account.client_id}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs" wrap="wrap">
                <Text fw={600}>{account.user_name}</Text>
                <Text size="sm" c="dimmed">{account.client_id}</Text>
                <Badge variant="light" color={account.mode === 'LIVE' ? 'red' : 'blue'}>{account.mode}</Badge>
                <SyncBadge account={account} />
              </Group>
              <Group gap="xs" wrap="wrap">
                <Text size="sm">Investment {formatRupees(account.investment_paise)}</Text>
                <Switch size="sm" label="Active" checked={account.active}
                  onChange={(event) => void run(save({ id: detail.ensemble_id, account: account.user_broker_id, active: event.currentTarget.checked }),
                    `Account ${account.client_id} ${event.currentTarget.checked ? 'active' : 'inactive'}`)} />
                <Button size="xs" variant="default" onClick={() => setEditing(account)}>Edit</Button>
                <Button size="xs" variant="subtle" color="red"
                  onClick={() => void run(remove({ id: detail.ensemble_id, account: account.user_broker_id }), `Account ${account.client_id} removed`)}>Remove</Button>
              </Group>
            </Group>
            {account.rows.length === 0 ? <Text size="sm" c="dimmed" mt="xs">No target and no position.</Text> : (
              <Table.ScrollContainer minWidth={420} mt="xs">
                <Table striped data-testid="ensemble-drift">
                  <Table.Thead>
                    <Table.Tr><Table.Th>Instrument</Table.Th><Table.Th ta="right">Target</Table.Th><Table.Th ta="right">Actual</Table.Th><Table.Th ta="right">Drift</Table.Th><Table.Th ta="right">Lot</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {account.rows.map((row) => (
                      <Table.Tr key={row.instrument_id}>
                        <Table.Td>{row.symbol}</Table.Td>
                        <Table.Td ta="right">{row.target}</Table.Td>
                        <Table.Td ta="right">{row.actual}</Table.Td>
                        <Table.Td ta="right" c={row.drift === 0 ? 'dimmed' : 'orange'}>{signed(row.drift)}</Table.Td>
                        <Table.Td ta="right">{row.lot_size}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Paper>
        ))}
        <Group align="flex-end" wrap="wrap" gap="xs">
          <Select label="Add account" placeholder="Broker account" data={detail.candidate_accounts.map((item) => ({ value: item.id, label: item.label }))}
            value={adding} onChange={setAdding} searchable w={260} data-testid="ensemble-add-account" />
          <NumberInput label="Investment (₹)" value={investment} onChange={setInvestment} min={0} decimalScale={2} thousandSeparator="," w={160} data-testid="ensemble-add-investment" />
          <Select label="Mode" data={['PAPER', 'LIVE']} value={mode} onChange={setMode} allowDeselect={false} w={110} />
          <Button disabled={adding === null || !(rupees > 0)}
            onClick={() => void run(save({ id: detail.ensemble_id, account: adding, investment: Math.round(rupees * 100), mode }), 'Account added').then(() => setAdding(null))}>
            Add
          </Button>
        </Group>
      </Stack>
      <AccountEditor ensembleId={detail.ensemble_id} account={editing} onDone={() => { setEditing(undefined); refresh(); }} />
    </Paper>
  );
}

function MembersSection({ detail, refresh }: { readonly detail: EnsembleDetailData; readonly refresh: () => void }) {
  const [adding, setAdding] = useState<string | null>(null);
  const [weight, setWeight] = useState<string | number>(1);
  const [, save] = useMutation(SET_MEMBER_MUTATION);
  const [, remove] = useMutation(REMOVE_MEMBER_MUTATION);
  const { error, run } = useChangeRunner(refresh);


  const positionsText = (member: EnsembleMember): string => member.positions.length === 0 ? 'flat'
    : member.positions.map((position) => `${position.symbol} ${signed(position.quantity)}`).join(', ');

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Members</Title>
        {error !== undefined && <Alert color="red" data-testid="ensemble-members-error">{error}</Alert>}
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="ensemble-members">
            <Table.Thead>
              <Table.Tr><Table.Th>Strategy</Table.Th><Table.Th ta="right">Weight</Table.Th><Table.Th>Run</Table.Th><Table.Th ta="right">Investment</Table.Th><Table.Th>Positions</Table.Th><Table.Th /></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.members.length === 0 && <Table.Tr><Table.Td colSpan={6}><Text size="sm" c="dimmed">No members yet.</Text></Table.Td></Table.Tr>}
              {detail.members.map((member) => (
                <Table.Tr key={member.strategy_id}>
                  <Table.Td>{member.name}</Table.Td>
                  <Table.Td ta="right">{member.weight}</Table.Td>
                  <Table.Td>{member.run_kind ?? 'no PAPER/LIVE run in progress'}</Table.Td>
                  <Table.Td ta="right">{member.investment_paise > 0 ? formatRupees(member.investment_paise) : MISSING_VALUE}</Table.Td>
                  <Table.Td>{positionsText(member)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" color="red"
                      onClick={() => void run(remove({ id: detail.ensemble_id, member: member.strategy_id }), `${member.name} removed`)}>Remove</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group align="flex-end" wrap="wrap" gap="xs">
          <Select label="Add member" placeholder="Algo strategy with a PAPER or LIVE run" data={detail.candidate_members.map((item) => ({ value: item.id, label: item.label }))}
            value={adding} onChange={setAdding} searchable w={300} />
          <NumberInput label="Weight" value={weight} onChange={setWeight} min={0} decimalScale={4} w={110} />
          <Button disabled={adding === null || !(typeof weight === 'number' && weight > 0)}
            onClick={() => void run(save({ id: detail.ensemble_id, member: adding, weight }), 'Member added').then(() => setAdding(null))}>
            Add
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function PreviewDialog({ ensembleId, asOf, preview, onClose, onApplied }: {
  readonly ensembleId: string; readonly asOf: string; readonly preview: SyncPreview | undefined; readonly onClose: () => void; readonly onApplied: () => void;
}) {
  const [applying, apply] = useMutation<{ ensemble_sync_apply: { sync_id: string; status: string; already_applied: boolean } }>(APPLY_MUTATION);
  const [error, setError] = useState<string | undefined>(undefined);

  async function applyPreview(): Promise<void> {
    if (preview === undefined) return;
    const result = await apply({ id: ensembleId, token: preview.preview_token, asOf });
    if (result.error !== undefined) {
      setError(errorMessage(result.error));
      return;
    }
    const outcome = result.data?.ensemble_sync_apply;
    showToast('success', outcome?.already_applied === true ? 'This preview was applied already: nothing placed' : `Sync ${outcome?.status ?? ''}`);
    setError(undefined);
    onApplied();
  }

  return (
    <Modal opened={preview !== undefined} onClose={() => { setError(undefined); onClose(); }} title={`Sync preview as of ${preview?.as_of ?? ''}`} size="xl">
      <Stack gap="sm">
        {error !== undefined && <Alert color="red" data-testid="ensemble-apply-error">{error}</Alert>}
        {preview?.orders.length === 0 ? <Text data-testid="ensemble-preview-empty">Every active account is in sync: nothing to place.</Text> : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="ensemble-preview">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Account</Table.Th><Table.Th>Mode</Table.Th><Table.Th>Instrument</Table.Th><Table.Th>Side</Table.Th>
                  <Table.Th ta="right">Qty</Table.Th><Table.Th ta="right">Est. price</Table.Th><Table.Th ta="right">Charges</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview?.orders.map((order) => (
                  <Table.Tr key={`${order.user_broker_id}-${order.instrument_id}`}>
                    <Table.Td>{order.client_id}</Table.Td>
                    <Table.Td>{order.mode}</Table.Td>
                    <Table.Td>{order.symbol}</Table.Td>
                    <Table.Td c={order.side === 'BUY' ? 'teal' : 'red'}>{order.side}</Table.Td>
                    <Table.Td ta="right">{order.quantity}</Table.Td>
                    <Table.Td ta="right">{formatRupees(order.estimated_price_paise)}</Table.Td>
                    <Table.Td ta="right">{formatRupees(order.estimated_charges_paise)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">Estimated charges {formatRupees(preview?.charges_paise ?? 0)}</Text>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>Close</Button>
            <Button onClick={() => void applyPreview()} loading={applying.fetching} disabled={preview === undefined || preview.orders.length === 0} data-testid="ensemble-apply">
              Apply these orders
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

function statusColor(status: string): string {
  return status === 'COMPLETE' || status === 'FILLED' ? 'teal' : status === 'PLACING' || status === 'PENDING' || status === 'NOTHING' ? 'blue' : 'red';
}

function HistorySection({ history, from, setFrom, fromError }: {
  readonly history: readonly SyncRecord[]; readonly from: string; readonly setFrom: (value: string) => void; readonly fromError: string | undefined;
}) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Title order={4}>History</Title>
          <TextInput type="date" label="Syncs from" value={from} min={MIN_ENSEMBLE_SYNC_DATE} max={istToday()} error={fromError} w={200}
            onChange={(event) => setFrom(event.currentTarget.value)} data-testid="ensemble-history-from" />
        </Group>
        {history.length === 0 ? <Text size="sm" c="dimmed">No syncs since {from}.</Text> : (
          <Accordion variant="separated" data-testid="ensemble-history">
            {history.map((sync) => (
              <Accordion.Item key={sync.sync_id} value={sync.sync_id} data-testid="ensemble-history-row">
                <Accordion.Control>
                  <Group gap="xs" wrap="wrap">
                    <Text size="sm">{new Date(sync.created_at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' })}</Text>
                    <Badge color={statusColor(sync.status)}>{sync.status}</Badge>
                    <Text size="sm" c="dimmed">as of {sync.as_of} · {sync.filled_count}/{sync.orders_count} filled · {sync.accounts_count} accounts · {sync.actor_name ?? MISSING_VALUE}</Text>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <Table.ScrollContainer minWidth={640}>
                    <Table striped>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Account</Table.Th><Table.Th>Instrument</Table.Th><Table.Th>Side</Table.Th><Table.Th ta="right">Qty</Table.Th>
                          <Table.Th ta="right">Avg price</Table.Th><Table.Th>Outcome</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {sync.orders.map((order) => (
                          <Table.Tr key={`${order.user_broker_id}-${order.symbol}`}>
                            <Table.Td>{order.client_id} ({order.mode})</Table.Td>
                            <Table.Td>{order.symbol}</Table.Td>
                            <Table.Td>{order.side}</Table.Td>
                            <Table.Td ta="right">{order.quantity}</Table.Td>
                            <Table.Td ta="right">{order.average_price_paise === null ? MISSING_VALUE : formatRupees(order.average_price_paise)}</Table.Td>
                            <Table.Td><Badge size="sm" color={statusColor(order.status)}>{order.status}</Badge>{order.message === null ? null : <Text size="xs">{order.message}</Text>}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </Stack>
    </Paper>
  );
}

export function EnsembleDetail({ id }: { readonly id: string }) {
  const today = istToday();
  const [asOf, setAsOf] = useState<string>(today);
  const [from, setFrom] = useState<string>(MIN_ENSEMBLE_SYNC_DATE);
  const asOfError = dateError('As of', asOf, today);
  const fromError = dateError('Syncs from', from, today);
  const [detail, refetch] = useQuery<{ ensemble_detail: EnsembleDetailData }>({
    query: ENSEMBLE_DETAIL_QUERY, variables: { id, asOf: asOfError === undefined ? asOf : today, from: fromError === undefined ? from : MIN_ENSEMBLE_SYNC_DATE },
    requestPolicy: 'cache-and-network',
  });
  const client = useClient();
  const [preview, setPreview] = useState<SyncPreview | undefined>(undefined);
  const [previewing, setPreviewing] = useState(false);
  const refresh = (): void => refetch({ requestPolicy: 'network-only' });

  async function openPreview(): Promise<void> {
    setPreviewing(true);
    const result = await client.query<{ ensemble_sync_preview: SyncPreview }>(PREVIEW_QUERY, { id, asOf }, { requestPolicy: 'network-only' }).toPromise();
    setPreviewing(false);
    if (result.error !== undefined) showToast('error', errorMessage(result.error));
    else setPreview(result.data?.ensemble_sync_preview);
  }

  const data = detail.data?.ensemble_detail;
  // Live figures: a change of any position behind the drift (a member's signal filled, an account's order) reloads them.
  const memberRuns = (data?.members ?? []).flatMap((member) => (member.run_id === null ? [] : [member.run_id]));
  const [changes] = useSubscription<{ positions: { run_id: string; instrument_id: number; net_quantity: number; updated_at: string }[] }>({
    query: ENSEMBLE_POSITIONS_SUBSCRIPTION, variables: { runs: memberRuns, ensemble: id }, pause: data === undefined,
  });
  const newest = changes.data?.positions[0];
  const signature = newest === undefined ? '' : `${newest.run_id}:${newest.instrument_id}:${newest.net_quantity}:${newest.updated_at}`;
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (changes.data === undefined) return;
    if (seen.current !== undefined && seen.current !== signature) refetch({ requestPolicy: 'network-only' });
    seen.current = signature;
  }, [changes.data, signature, refetch]);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Title order={2} data-testid="ensemble-name">{data?.name ?? 'Ensemble'}</Title>
          <Link to="/ensembleSync">All ensembles</Link>
        </Stack>
        <Group align="flex-end" wrap="wrap" gap="xs">
          <TextInput type="date" label="As of" value={asOf} min={MIN_ENSEMBLE_SYNC_DATE} max={today} error={asOfError} w={200}
            onChange={(event) => setAsOf(event.currentTarget.value)} data-testid="ensemble-as-of" />
          <Button disabled={asOfError !== undefined || data === undefined} loading={previewing} data-testid="ensemble-preview-button"
            onClick={() => void openPreview()}>
            Preview sync
          </Button>
        </Group>
      </Group>
      <QueryError error={detail.error} />
      {data !== undefined && (
        <>
          <AccountsSection detail={data} refresh={refresh} />
          <MembersSection detail={data} refresh={refresh} />
          <HistorySection history={data.history} from={from} setFrom={setFrom} fromError={fromError} />
        </>
      )}
      <PreviewDialog ensembleId={id} asOf={asOf} preview={preview} onClose={() => setPreview(undefined)}
        onApplied={() => { setPreview(undefined); refresh(); }} />
    </Stack>
  );
}

// The deploy dialog's field groups: mode and broker account (each account offered for LIVE with
// whether it logged in to Zerodha today, live from the dialog's subscription, and the login link
// when it did not), sizing, exits and daily limits, manual confirmation, and the replay. Each
// shows its error from FieldErrors (the form's own check or the server's refusal) at the field it names.
import { Alert, Anchor, Group, NativeSelect, NumberInput, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { formatRupees } from '../../../../format/format';
import { currentInvestmentPaise } from '../investment';
import { loginPathIn, type DeployDraft, type DeployMode, type ExitDraft, type ExitField, type ExitKind, type FieldErrors, type SizingKind } from './deploy-form';
import { liveAccounts, liveLoginNote, todayLogin, type BrokerAccountRow, type LiveBlocker, type TodayLogin } from './live-availability';

export interface FieldsProps {
  readonly draft: DeployDraft;
  readonly errors: FieldErrors;
  readonly change: (patch: Partial<DeployDraft>) => void;
}

const MONEY = { min: 0, decimalScale: 2, thousandSeparator: ',', prefix: '₹ ' } as const;

export function ModeFields({ draft, errors, change, accounts, blocker }: FieldsProps & {
  readonly accounts: readonly BrokerAccountRow[];
  readonly blocker: LiveBlocker | undefined;
}) {
  const usable = liveAccounts(accounts);
  const now = Date.now();
  const logins = usable.map((row) => todayLogin(row, now));
  const pickAccount = (id: string | null): void => {
    const row = (draft.mode === 'LIVE' ? usable : accounts).find((account) => account.user_broker_id === id);
    // The account's own investment is the capital it trades with; the field stays editable.
    change(row === undefined ? { userBrokerId: null } : { userBrokerId: id, investmentRupees: currentInvestmentPaise(row) / 100 });
  };
  return (
    <Stack gap="xs">
      <SegmentedControl<DeployMode>
        aria-label="Mode" value={draft.mode} data-testid="deploy-mode"
        data={[{ value: 'PAPER', label: 'PAPER' }, { value: 'LIVE', label: 'LIVE', disabled: blocker !== undefined }]}
        // An account chosen for PAPER that cannot trade LIVE is not carried over to LIVE.
        onChange={(mode) => change(mode === 'LIVE' && !usable.some((row) => row.user_broker_id === draft.userBrokerId) ? { mode, userBrokerId: null } : { mode })}
      />
      {blocker !== undefined && (
        <Text size="sm" c="dimmed" data-testid="deploy-live-reason">
          LIVE is unavailable: {blocker.reason}{' '}
          {blocker.link && <Anchor component={Link} to={blocker.link.to}>{blocker.link.label}</Anchor>}
        </Text>
      )}
      {errors.mode && <Text size="sm" c="red" role="alert">{errors.mode}</Text>}
      {draft.mode === 'PAPER' && accounts.length > 0 && (
        <Select
          label="Broker account (optional)" placeholder="None" clearable data-testid="deploy-paper-account" value={draft.userBrokerId} error={errors.user_broker_id}
          description="The paper run counts toward this account's stop-loss and target on /userAccounts."
          data={accounts.map((row) => ({ value: row.user_broker_id, label: `${row.broker} ${row.client_id} · ${formatRupees(currentInvestmentPaise(row))}` }))}
          onChange={pickAccount}
        />
      )}
      {draft.mode === 'LIVE' && (
        <>
          <Select
            label="Broker account" placeholder="Choose the account" data-testid="deploy-account" value={draft.userBrokerId} error={errors.user_broker_id}
            data={usable.map((row) => ({ value: row.user_broker_id, label: `Zerodha ${row.client_id} · ${formatRupees(currentInvestmentPaise(row))}` }))}
            onChange={pickAccount}
          />
          {loginPathIn(errors.user_broker_id) && (
            <Anchor href={loginPathIn(errors.user_broker_id)} target="_blank" size="sm" data-testid="deploy-broker-login">Log in to Zerodha for today</Anchor>
          )}
          <TodayLogins logins={logins} chosen={draft.userBrokerId} />
          <Text size="xs" c="dimmed">A LIVE run trades one broker account. To trade several accounts, deploy one strategy per account.</Text>
        </>
      )}
    </Stack>
  );
}

/** Each offered account's login today, and what deploying through the chosen one meets when it has none. */
function TodayLogins({ logins, chosen }: { readonly logins: readonly TodayLogin[]; readonly chosen: string | null }) {
  const note = liveLoginNote(logins.find((login) => login.userBrokerId === chosen));
  return (
    <Stack gap={4} data-testid="deploy-sessions">
      {logins.map((login) => (
        <Text key={login.userBrokerId} size="sm" c={login.loggedIn ? 'teal' : 'orange'}
          data-testid="deploy-session" data-account={login.userBrokerId} data-logged-in={String(login.loggedIn)}>
          {login.words}{' '}
          {login.loginPath !== undefined && <Anchor href={login.loginPath} target="_blank" size="sm">Log in to Zerodha</Anchor>}
        </Text>
      ))}
      {note !== undefined && <Alert color="orange" variant="light" data-testid="deploy-session-note">{note}</Alert>}
    </Stack>
  );
}

export function SizingFields({ draft, errors, change, lotSize }: FieldsProps & { readonly lotSize: number }) {
  return (
    <Stack gap="xs">
      <NumberInput hideControls
        label="Investment (₹)" {...MONEY} value={draft.investmentRupees} error={errors.investment} data-testid="deploy-investment"
        onChange={(value) => change({ investmentRupees: value })}
      />
      <Group align="flex-start" wrap="wrap" gap="sm">
        <NativeSelect
          label="Sizing" value={draft.sizing} data-testid="deploy-sizing" w={180}
          data={[{ value: 'all-in', label: 'All-in (investment)' }, { value: 'quantity', label: 'Quantity' }, { value: 'lots', label: 'Lots' }]}
          onChange={(event) => change({ sizing: event.currentTarget.value as SizingKind })}
        />
        {draft.sizing === 'quantity' && (
          <NumberInput hideControls label="Quantity" min={1} allowDecimal={false} value={draft.quantity} w={140} error={errors.sizing}
            data-testid="deploy-quantity" onChange={(value) => change({ quantity: value })} />
        )}
        {draft.sizing === 'lots' && (
          <NumberInput hideControls label={`Lots (× ${lotSize})`} min={1} allowDecimal={false} value={draft.lots} w={140} error={errors.sizing}
            data-testid="deploy-lots" onChange={(value) => change({ lots: value })} />
        )}
      </Group>
      {draft.sizing === 'all-in' && errors.sizing && <Text size="sm" c="red">{errors.sizing}</Text>}
    </Stack>
  );
}

const EXIT_LABELS: Record<ExitField, string> = { stopLoss: 'Stop-loss', target: 'Target', trailingStop: 'Trailing stop' };

function ExitInput({ field, value, error, onChange }: {
  readonly field: ExitField; readonly value: ExitDraft; readonly error: string | undefined; readonly onChange: (value: ExitDraft) => void;
}) {
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <NativeSelect
        label={EXIT_LABELS[field]} value={value.kind} w={120} data-testid={`deploy-${field}-kind`}
        data={[{ value: 'none', label: 'None' }, { value: 'percent', label: 'Percent' }, { value: 'points', label: 'Points (₹)' }]}
        onChange={(event) => onChange({ ...value, kind: event.currentTarget.value as ExitKind })}
      />
      <NumberInput hideControls
        label={value.kind === 'points' ? '₹ per unit' : '%'} w={110} value={value.value} disabled={value.kind === 'none'} error={error}
        decimalScale={2} data-testid={`deploy-${field}`} onChange={(next) => onChange({ ...value, value: next })}
      />
    </Group>
  );
}

export function ExitFields({ draft, errors, change }: FieldsProps) {
  return (
    <Stack gap="xs">
      <Group align="flex-start" wrap="wrap" gap="md">
        {(['stopLoss', 'target', 'trailingStop'] as const).map((field) => (
          <ExitInput key={field} field={field} value={draft[field]} error={errors[field]} onChange={(value) => change({ [field]: value })} />
        ))}
      </Group>
      <Group align="flex-start" wrap="wrap" gap="md">
        <NumberInput hideControls label="Daily max loss (₹)" placeholder="No limit" {...MONEY} w={200} value={draft.dailyMaxLossRupees} error={errors.dailyMaxLoss}
          data-testid="deploy-daily-loss" onChange={(value) => change({ dailyMaxLossRupees: value })} />
        <NumberInput hideControls label="Daily max profit (₹)" placeholder="No limit" {...MONEY} w={200} value={draft.dailyMaxProfitRupees} error={errors.dailyMaxProfit}
          data-testid="deploy-daily-profit" onChange={(value) => change({ dailyMaxProfitRupees: value })} />
      </Group>
      <Switch
        label="Manual confirmation: each signal waits for you to accept or reject it" checked={draft.manual} error={errors.manual}
        data-testid="deploy-manual" onChange={(event) => change({ manual: event.currentTarget.checked })}
      />
    </Stack>
  );
}

/** docs/PRODUCT.md section 4 forward tests: the speeds deploy_strategy accepts (deploy-checks.ts REPLAY_SPEEDS). */
const SPEEDS = [{ value: '0', label: 'As fast as it goes' }, { value: '1', label: '1× (real time)' }, { value: '10', label: '10×' },
  { value: '60', label: '60×' }, { value: '600', label: '600×' }];

export function ReplayFields({ draft, errors, change, history }: FieldsProps & { readonly history: { from: string; to: string } | undefined }) {
  if (draft.mode !== 'PAPER') return null;
  return (
    <Stack gap="xs">
      <Switch
        label="Replay stored sessions (a forward test at any hour); off: trade the simulated market as it happens" checked={draft.replay}
        data-testid="deploy-replay" onChange={(event) => change({ replay: event.currentTarget.checked })}
      />
      {draft.replay && history === undefined && <Alert color="yellow">No stored history of this instrument to replay.</Alert>}
      {draft.replay && history !== undefined && (
        <Group align="flex-start" wrap="wrap" gap="md">
          <TextInput type="date" label="From" min={history.from} max={history.to} value={draft.replayFrom} error={errors['replay.from']} w={170}
            data-testid="deploy-replay-from" onChange={(event) => change({ replayFrom: event.currentTarget.value })} />
          <TextInput type="date" label="To" min={history.from} max={history.to} value={draft.replayTo} error={errors['replay.to']} w={170}
            data-testid="deploy-replay-to" onChange={(event) => change({ replayTo: event.currentTarget.value })} />
          <NativeSelect label="Speed" data={SPEEDS} value={String(draft.speed)} error={errors['replay.speed']} w={170}
            data-testid="deploy-speed" onChange={(event) => change({ speed: Number(event.currentTarget.value) })} />
        </Group>
      )}
      {errors.replay && <Text size="sm" c="red">{errors.replay}</Text>}
    </Stack>
  );
}

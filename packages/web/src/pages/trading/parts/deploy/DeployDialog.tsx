// The deploy dialog (docs/PRODUCT.md section 4): mode, broker account and its investment, sizing,
// exits, daily limits, manual confirmation and, on PAPER, a replay of stored sessions at a chosen
// speed. The broker accounts are a subscription: each offered for LIVE says whether it logged in
// to Zerodha today (live-availability.ts), and a login done meanwhile (in the tab the login link
// opens) shows at once. Saving writes strategies.config (update_strategies_by_pk; the builder roles, own rows)
// and then calls deploy_strategy, which checks everything again; a refusal's issues come back
// with their field paths and are shown at those fields.
//
// Props (exported for the strategy detail page too):
// - `strategy`: the strategy row fields DeployStrategy lists (what the config is checked with);
// - `opened` / `onClose`: the modal's state; `onDeployed`: called after a successful deploy.
import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { addDays, isoDate } from '@vyuha/core';
import { useMemo, useState } from 'react';
import { useMutation, useQuery, useSubscription, type CombinedError } from 'urql';
import { showToast } from '../../../../app/toast';
import { errorMessage } from '../QueryState';
import { dateText } from '../time';
import { useSubject } from '../use-subject';
import { deployRequestOf, draftOf, fieldErrorsOf, type DeployDraft, type DeployTarget, type FieldErrors } from './deploy-form';
import { ExitFields, ModeFields, ReplayFields, SizingFields } from './DeployFields';
import { liveBlocker, type BrokerAccountRow } from './live-availability';

export interface DeployStrategy extends DeployTarget {
  readonly strategy_id: string;
  readonly name: string;
  readonly instrument: { readonly instrument_id: number; readonly name: string; readonly lot_size: number } | null;
}

/** A login stamps ownership_checked_at on its account: the subscription pushes it (live-availability.ts todayLogin). */
const ACCOUNTS_SUBSCRIPTION = `subscription DeployAccounts($user_id: uuid!) {
  user_brokers(where: { user_id: { _eq: $user_id } }, order_by: [{ broker: asc }, { client_id: asc }]) {
    user_broker_id broker client_id active api_key investment_amt_paise investment_history ownership ownership_checked_at
  }
}`;

/** The instrument's first and last stored minute: the dates a replay may play. */
const HISTORY_QUERY = `query DeployHistory($instrument_id: Int!) {
  first: candles(where: { instrument_id: { _eq: $instrument_id } }, order_by: { ts: asc }, limit: 1) { ts }
  last: candles(where: { instrument_id: { _eq: $instrument_id } }, order_by: { ts: desc }, limit: 1) { ts }
}`;

const SAVE_CONFIG = `mutation DeploySaveConfig($id: uuid!, $config: jsonb!) {
  update_strategies_by_pk(pk_columns: { strategy_id: $id }, _set: { config: $config }) { strategy_id config }
}`;

const DEPLOY = `mutation DeployStrategy($id: uuid!, $mode: String!, $replay: deploy_replay_input, $account: uuid) {
  deploy_strategy(strategy_id: $id, mode: $mode, replay: $replay, user_broker_id: $account) { run_id }
}`;

/** A replay's default: the last few stored sessions. */
const DEFAULT_REPLAY_DAYS = 2;

/** A refusal's issues ({ field, message }) from the error's extensions, else its message as a general error. */
export function refusalErrors(error: CombinedError): FieldErrors {
  const issues = error.graphQLErrors.flatMap((graphqlError) => {
    const listed = (graphqlError.extensions as { issues?: unknown } | undefined)?.issues;
    return Array.isArray(listed) ? listed as Array<{ field?: string; message: string }> : [];
  });
  return issues.length > 0 ? fieldErrorsOf(issues) : { general: errorMessage(error) };
}

function useHistory(instrumentId: number | undefined): { from: string; to: string } | undefined {
  const [result] = useQuery<{ first: Array<{ ts: string }>; last: Array<{ ts: string }> }>({
    query: HISTORY_QUERY, variables: { instrument_id: instrumentId ?? 0 }, pause: instrumentId === undefined,
  });
  const first = result.data?.first[0]?.ts;
  const last = result.data?.last[0]?.ts;
  return useMemo(() => (first && last ? { from: dateText(first), to: dateText(last) } : undefined), [first, last]);
}

export function DeployDialog({ strategy, opened, onClose, onDeployed }: {
  readonly strategy: DeployStrategy;
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onDeployed?: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Deploy ${strategy.name}`} size="lg" data-testid="deploy-dialog">
      {opened && <DeployForm strategy={strategy} onClose={onClose} {...(onDeployed ? { onDeployed } : {})} />}
    </Modal>
  );
}

function DeployForm({ strategy, onClose, onDeployed }: { readonly strategy: DeployStrategy; readonly onClose: () => void; readonly onDeployed?: () => void }) {
  const subject = useSubject();
  const history = useHistory(strategy.instrument?.instrument_id);
  const [accounts] = useSubscription<{ user_brokers: BrokerAccountRow[] }>({ query: ACCOUNTS_SUBSCRIPTION, variables: { user_id: subject.userId }, pause: !subject.userId });
  const [edited, setEdited] = useState<DeployDraft | undefined>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saveState, saveConfig] = useMutation(SAVE_CONFIG);
  const [deployState, deploy] = useMutation<{ deploy_strategy: { run_id: string } | null }>(DEPLOY);
  const fallback = useMemo(() => {
    const to = history?.to ?? '';
    const from = history === undefined ? '' : [addDays(isoDate(to), -DEFAULT_REPLAY_DAYS), history.from].sort().at(-1) ?? history.from;
    return draftOf(strategy.config, { from, to });
  }, [strategy.config, history]);
  const draft = edited ?? fallback;
  const blocker = liveBlocker({ role: subject.role, accounts: accounts.data?.user_brokers ?? [], legs: strategy.config?.legs != null });
  const change = (patch: Partial<DeployDraft>): void => setEdited({ ...draft, ...patch });

  async function submit(): Promise<void> {
    const checked = deployRequestOf(draft, strategy, history ?? { from: '', to: '' });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const saved = await saveConfig({ id: strategy.strategy_id, config: checked.request.config });
    if (saved.error || !saved.data?.update_strategies_by_pk) {
      setErrors({ general: saved.error ? errorMessage(saved.error) : 'The strategy was not saved: it is not yours to change.' });
      return;
    }
    const { mode, replay, userBrokerId } = checked.request;
    const result = await deploy({ id: strategy.strategy_id, mode, replay, account: userBrokerId });
    if (result.error) {
      setErrors(refusalErrors(result.error));
      return;
    }
    showToast('success', `${strategy.name} is deployed on ${mode}${replay ? ` (replay ${replay.from} to ${replay.to})` : ''}.`);
    onDeployed?.();
    onClose();
  }

  return (
    <Stack gap="md">
      <ModeFields draft={draft} errors={errors} change={change} accounts={accounts.data?.user_brokers ?? []} blocker={blocker} />
      <Divider label="Sizing" labelPosition="left" />
      <SizingFields draft={draft} errors={errors} change={change} lotSize={strategy.instrument?.lot_size ?? 1} />
      <Divider label="Exits and daily limits" labelPosition="left" />
      <ExitFields draft={draft} errors={errors} change={change} />
      {draft.mode === 'PAPER' && <Divider label="Replay" labelPosition="left" />}
      <ReplayFields draft={draft} errors={errors} change={change} history={history} />
      {(errors.general ?? errors.legs) && <Alert color="red" role="alert" data-testid="deploy-error">{errors.general ?? errors.legs}</Alert>}
      {Object.keys(errors).length > 0 && !errors.general && <Text size="sm" c="red">Correct the marked fields and deploy again.</Text>}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button loading={saveState.fetching || deployState.fetching} onClick={() => void submit()} data-testid="deploy-submit">Deploy on {draft.mode}</Button>
      </Group>
    </Stack>
  );
}

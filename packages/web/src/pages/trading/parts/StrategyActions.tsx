// What the user may do with one strategy, as buttons: deploy (DRAFT or STOPPED: the deploy dialog),
// pause, resume, stop, stop and square off, publish or unpublish, delete. Only what the role and
// the status allow is shown. The server checks each again:
// - pause, publish, unpublish: update_strategies_by_pk (docs/GRAPHQL-PERMISSIONS.md, strategies:
//   the builder roles, own rows; migration 0019's trigger allows only the strategy life's moves);
// - deploy and resume: deploy_strategy (strategy:deploy, the licence, PAPER only for demo and backtest);
// - stop: stop_strategy (square_off closes the run's open positions first);
// - delete: delete_strategies_by_pk (not while ACTIVE).
//
// Props (exported for the strategy detail page too):
// - `strategy`: strategy_id, user_id, name, status, mode, published (kind: only algo strategies deploy);
// - `deployable`: the row fields the deploy dialog needs (DeployStrategy); without it there is no Deploy button;
// - `onDeploy`: Deploy calls it instead of opening its own dialog (a list that keeps one dialog for
//   every row, so switching between table and cards does not close it);
// - `subject` (default: the signed-in or acted-for user), `onChanged` after a change, `size` of the buttons.
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation, type OperationResult } from 'urql';
import { confirm } from '../../../app/confirm';
import { showToast } from '../../../app/toast';
import { useReadOnly } from '../../../app/update-mode';
import type { DeployStrategy } from './deploy/DeployDialog';
import { LazyDeployDialog } from './deploy/lazy-dialogs';
import { errorMessage } from './QueryState';
import { allowedActions, type ActionTarget, type StrategyAction } from './deploy/strategy-actions';
import { useSubject, type Subject } from './use-subject';

export { allowedActions, statusChangeBlocker, type ActionTarget, type StrategyAction } from './deploy/strategy-actions';

const PAUSE = `mutation PauseStrategy($id: uuid!) {
  update_strategies_by_pk(pk_columns: { strategy_id: $id }, _set: { status: "PAUSED" }) { strategy_id status updated_at }
}`;

const RESUME = `mutation ResumeStrategy($id: uuid!, $mode: String!) {
  deploy_strategy(strategy_id: $id, mode: $mode) { run_id }
}`;

const STOP = `mutation StopStrategy($id: uuid!, $square_off: Boolean!) {
  stop_strategy(strategy_id: $id, square_off: $square_off) { strategy_id run_id }
}`;

const PUBLISH = `mutation PublishStrategy($id: uuid!, $published: Boolean!) {
  update_strategies_by_pk(pk_columns: { strategy_id: $id }, _set: { published: $published }) { strategy_id published updated_at }
}`;

const DELETE = `mutation DeleteStrategy($id: uuid!) { delete_strategies_by_pk(strategy_id: $id) { strategy_id } }`;

interface ActionSpec {
  readonly label: string;
  readonly color: string;
  readonly variant: 'filled' | 'light' | 'outline';
  /** The confirmation dialog's words. */
  readonly question: (strategy: ActionTarget) => { title: string; message: string; danger: boolean };
  readonly done: string;
}

const SPECS: Record<Exclude<StrategyAction, 'deploy'>, ActionSpec> = {
  pause: { label: 'Pause', color: 'yellow', variant: 'outline', done: 'is PAUSED',
    question: (s) => ({ title: 'Pause strategy', message: `Pause "${s.name}"? It stops taking new ${s.mode} entries until resumed; open positions stay open.`, danger: false }) },
  resume: { label: 'Resume', color: 'teal', variant: 'filled', done: 'is ACTIVE again',
    question: (s) => ({ title: 'Resume strategy', message: `Resume "${s.name}" in ${s.mode} mode, carrying on its run as it was deployed?`, danger: false }) },
  stop: { label: 'Stop', color: 'red', variant: 'outline', done: 'is STOPPED',
    question: (s) => ({ title: 'Stop strategy', message: `Stop "${s.name}"? Its run ends and places no new orders; open positions are left open for you to close. `
      + 'Its licence slot is given back.', danger: true }) },
  'square-off': { label: 'Stop and square off', color: 'red', variant: 'filled', done: 'is STOPPED and its positions are being squared off',
    question: (s) => ({ title: 'Stop and square off', message: `Stop "${s.name}" and square off? Its pending orders are cancelled, every open position of its run `
      + `is closed at market (${s.mode === 'LIVE' ? 'real orders through your broker' : 'on paper'}), then the run ends. This cannot be undone.`, danger: true }) },
  publish: { label: 'Publish', color: 'blue', variant: 'light', done: 'is published on the marketplace',
    question: (s) => ({ title: 'Publish to the marketplace', message: `Publish "${s.name}"? Other users see it and its paper record on the marketplace, and `
      + 'subscribers follow its signals with their own sizing.', danger: false }) },
  unpublish: { label: 'Unpublish', color: 'gray', variant: 'light', done: 'is no longer on the marketplace',
    question: (s) => ({ title: 'Unpublish', message: `Take "${s.name}" off the marketplace? New users can no longer subscribe.`, danger: false }) },
  delete: { label: 'Delete', color: 'red', variant: 'light', done: 'is deleted',
    question: (s) => ({ title: 'Delete strategy', message: `Delete "${s.name}"? The strategy goes; its past runs, orders and P&L stay in your records.`, danger: true }) },
};

function useActionRunners(): { run: (action: Exclude<StrategyAction, 'deploy'>, strategy: ActionTarget) => Promise<OperationResult>; fetching: boolean } {
  const [pauseState, pause] = useMutation(PAUSE);
  const [resumeState, resume] = useMutation(RESUME);
  const [stopState, stop] = useMutation(STOP);
  const [publishState, publish] = useMutation(PUBLISH);
  const [deleteState, remove] = useMutation(DELETE);
  const runners: Record<Exclude<StrategyAction, 'deploy'>, (strategy: ActionTarget) => Promise<OperationResult>> = {
    pause: (s) => pause({ id: s.strategy_id }),
    resume: (s) => resume({ id: s.strategy_id, mode: s.mode }),
    stop: (s) => stop({ id: s.strategy_id, square_off: false }),
    'square-off': (s) => stop({ id: s.strategy_id, square_off: true }),
    publish: (s) => publish({ id: s.strategy_id, published: true }),
    unpublish: (s) => publish({ id: s.strategy_id, published: false }),
    delete: (s) => remove({ id: s.strategy_id }),
  };
  const fetching = [pauseState, resumeState, stopState, publishState, deleteState].some((state) => state.fetching);
  return { run: (action, strategy) => runners[action](strategy), fetching };
}

/** True when the mutation's one root field answered a row (null: the row was not the user's to change). */
function changed(result: OperationResult): boolean {
  const data = result.data as Record<string, unknown> | undefined;
  return data !== undefined && Object.values(data).some((value) => value !== null && value !== undefined);
}

export function StrategyActions({ strategy, deployable, onDeploy, subject: given, onChanged, size = 'compact-sm' }: {
  readonly strategy: ActionTarget;
  readonly deployable?: DeployStrategy;
  readonly onDeploy?: () => void;
  readonly subject?: Subject;
  readonly onChanged?: () => void;
  readonly size?: 'compact-sm' | 'sm';
}) {
  const own = useSubject();
  const subject = given ?? own;
  const readOnly = useReadOnly();
  const [deploying, setDeploying] = useState(false);
  const { run, fetching } = useActionRunners();
  const actions = allowedActions(subject, strategy).filter((action) => action !== 'deploy' || deployable !== undefined || onDeploy !== undefined);
  if (actions.length === 0) return <Text size="sm" c="dimmed">—</Text>;

  async function act(action: Exclude<StrategyAction, 'deploy'>): Promise<void> {
    const spec = SPECS[action];
    const question = spec.question(strategy);
    const accepted = await confirm({ ...question, acceptLabel: spec.label, rejectLabel: 'Cancel' });
    if (!accepted) return;
    const result = await run(action, strategy);
    if (result.error) showToast('error', errorMessage(result.error));
    else if (!changed(result)) showToast('error', 'Nothing changed: the strategy is not yours to change, or its status has moved on.');
    else {
      showToast('success', `${strategy.name} ${spec.done}.`);
      onChanged?.();
    }
  }

  return (
    <Group gap={6} wrap="wrap">
      {actions.map((action) => action === 'deploy' ? (
        <Button key={action} size={size} color="teal" disabled={readOnly} onClick={() => (onDeploy ? onDeploy() : setDeploying(true))}>Deploy</Button>
      ) : (
        <Button key={action} size={size} color={SPECS[action].color} variant={SPECS[action].variant} disabled={readOnly || fetching}
          onClick={() => void act(action)}>
          {SPECS[action].label}
        </Button>
      ))}
      {deployable !== undefined && onDeploy === undefined && (
        <LazyDeployDialog strategy={deployable} opened={deploying} onClose={() => setDeploying(false)} {...(onChanged ? { onDeployed: onChanged } : {})} />
      )}
    </Group>
  );
}

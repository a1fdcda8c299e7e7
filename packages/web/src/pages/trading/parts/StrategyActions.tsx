// Pause and resume. Pausing is update_strategies_by_pk setting status PAUSED (docs/GRAPHQL-PERMISSIONS.md,
// table strategies, update: the builder roles, own rows only). Resuming goes through
// deploy_strategy, the only way a strategy becomes ACTIVE (it checks strategy:deploy and the
// licence, and carries the paused run on as it was deployed); demo and backtest keep PAPER only.
import { Button, Group, Text } from '@mantine/core';
import { useMutation } from 'urql';
import { confirm } from '../../../app/confirm';
import { showToast } from '../../../app/toast';
import { useReadOnly } from '../../../app/update-mode';
import { errorMessage } from './QueryState';
import { STRATEGY_WRITER_ROLES, type Subject } from './use-subject';

const PAUSE = `mutation PauseStrategy($id: uuid!) {
  update_strategies_by_pk(pk_columns: { strategy_id: $id }, _set: { status: "PAUSED" }) { strategy_id status updated_at }
}`;

const RESUME = `mutation ResumeStrategy($id: uuid!, $mode: String!) {
  deploy_strategy(strategy_id: $id, mode: $mode) { run_id }
}`;

const PAPER_ONLY = ['demo', 'backtest'];

export interface ActionTarget {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly status: string;
  readonly mode: string;
}

/** Why the subject may not change this strategy's status, or undefined when it may. */
export function statusChangeBlocker(subject: Subject, strategy: ActionTarget, next: 'ACTIVE' | 'PAUSED'): string | undefined {
  if (!STRATEGY_WRITER_ROLES.includes(subject.role ?? '')) return 'Your plan cannot change strategies.';
  if (strategy.user_id !== subject.userId) return 'Only the owner can change this strategy.';
  if (PAPER_ONLY.includes(subject.role ?? '') && strategy.mode !== 'PAPER') return 'Your plan runs paper strategies only.';
  // While acting for a managed user the server checks that user's permissions; we cannot see them here.
  if (next === 'ACTIVE' && !subject.actingForUser && !subject.permissions.includes('strategy:deploy')) {
    return 'Resuming needs the strategy:deploy permission.';
  }
  return undefined;
}

export function StrategyActions({ subject, strategy, onChanged }: {
  readonly subject: Subject;
  readonly strategy: ActionTarget;
  readonly onChanged: () => void;
}) {
  const readOnly = useReadOnly();
  const [pauseState, pause] = useMutation<{ update_strategies_by_pk: { status: string } | null }>(PAUSE);
  const [resumeState, resume] = useMutation<{ deploy_strategy: { run_id: string } | null }>(RESUME);
  const next = strategy.status === 'ACTIVE' ? 'PAUSED' : strategy.status === 'PAUSED' ? 'ACTIVE' : undefined;
  if (next === undefined) {
    return <Text size="sm" c="dimmed">Pause and resume apply to active or paused strategies; this one is {strategy.status}.</Text>;
  }
  const blocker = readOnly ? 'Read-only while a new version is deployed.' : statusChangeBlocker(subject, strategy, next);
  const label = next === 'PAUSED' ? 'Pause' : 'Resume';

  async function run(): Promise<void> {
    if (next === undefined) return;
    const accepted = await confirm({
      title: `${label} strategy`,
      message: next === 'PAUSED'
        ? `Pause "${strategy.name}"? It stops taking new ${strategy.mode.toLowerCase()} entries until resumed.`
        : `Resume "${strategy.name}" in ${strategy.mode} mode?`,
      acceptLabel: label,
      rejectLabel: 'Cancel',
      danger: next === 'PAUSED',
    });
    if (!accepted) return;
    const result = next === 'PAUSED' ? await pause({ id: strategy.strategy_id }) : await resume({ id: strategy.strategy_id, mode: strategy.mode });
    const changed = next === 'PAUSED'
      ? (result.data as { update_strategies_by_pk?: unknown } | undefined)?.update_strategies_by_pk
      : (result.data as { deploy_strategy?: unknown } | undefined)?.deploy_strategy;
    if (result.error) {
      showToast('error', errorMessage(result.error));
    } else if (!changed) {
      showToast('error', 'The strategy was not changed: it is not yours to change.');
    } else {
      showToast('success', `${strategy.name} is ${next}.`);
      onChanged();
    }
  }

  const button = (
    <Button
      variant={next === 'PAUSED' ? 'outline' : 'filled'}
      color={next === 'PAUSED' ? 'yellow' : 'teal'}
      disabled={blocker !== undefined}
      loading={pauseState.fetching || resumeState.fetching}
      onClick={() => void run()}
    >
      {label}
    </Button>
  );
  return (
    <Group gap="sm">
      {button}
      {blocker && <Text size="sm" c="dimmed">{blocker}</Text>}
    </Group>
  );
}

// Which actions a strategy offers (StrategyActions.tsx): what its status allows in the strategy
// life (migration 0019: DRAFT -> ACTIVE <-> PAUSED -> STOPPED -> ACTIVE), less what the subject's
// role, ownership and permissions rule out. The server checks all of it again; this keeps buttons
// that would be refused off the screen.
import { allows, entryForPath, PAPER_ONLY_ROLES } from '../../../../app/menu';
import type { Subject } from '../use-subject';

export interface ActionTarget {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly status: string;
  readonly mode: string;
  readonly published?: boolean;
  readonly kind?: string;
}

export type StrategyAction = 'deploy' | 'pause' | 'resume' | 'stop' | 'square-off' | 'publish' | 'unpublish' | 'delete';

/** The roles that see Strategies are the ones that write them (the server's BUILDER_ROLES). */
function writes(role: string | undefined): boolean {
  const entry = entryForPath('/strategies');
  return entry !== undefined && allows(entry, role);
}

/** Why the subject may not change this strategy's status, or undefined when it may. */
export function statusChangeBlocker(subject: Subject, strategy: ActionTarget, next: 'ACTIVE' | 'PAUSED'): string | undefined {
  if (!writes(subject.role)) return 'Your plan cannot change strategies.';
  if (strategy.user_id !== subject.userId) return 'Only the owner can change this strategy.';
  if ((PAPER_ONLY_ROLES as readonly string[]).includes(subject.role ?? '') && strategy.mode !== 'PAPER') return 'Your plan runs paper strategies only.';
  // While acting for a managed user the server checks that user's permissions; we cannot see them here.
  if (next === 'ACTIVE' && !subject.actingForUser && !subject.permissions.includes('strategy:deploy')) {
    return 'Deploying needs the strategy:deploy permission.';
  }
  return undefined;
}

/**
 * The actions offered for a strategy, in the order the buttons show.
 * @example allowedActions(advanced, { status: 'ACTIVE', published: false, ... }) // ['pause', 'stop', 'square-off', 'publish']
 */
export function allowedActions(subject: Subject, strategy: ActionTarget): StrategyAction[] {
  if (!writes(subject.role) || strategy.user_id !== subject.userId) return [];
  const deploys = statusChangeBlocker(subject, strategy, 'ACTIVE') === undefined && (strategy.kind ?? 'algo') === 'algo';
  const actions: StrategyAction[] = [];
  const status = strategy.status;
  if ((status === 'DRAFT' || status === 'STOPPED') && deploys) actions.push('deploy');
  if (status === 'ACTIVE') actions.push('pause');
  if (status === 'PAUSED' && deploys) actions.push('resume');
  if (status === 'ACTIVE' || status === 'PAUSED') actions.push('stop', 'square-off');
  actions.push(strategy.published === true ? 'unpublish' : 'publish');
  if (status === 'DRAFT' || status === 'STOPPED') actions.push('delete');
  return actions;
}

import { describe, expect, it } from 'vitest';
import { allowedActions, type ActionTarget } from './strategy-actions';
import type { Subject } from '../use-subject';

const ADVANCED: Subject = { userId: 'u1', role: 'advanced', permissions: ['strategy:deploy'], actingForUser: false };
const mine = (status: string, extra: Partial<ActionTarget> = {}): ActionTarget => ({ strategy_id: 's1', user_id: 'u1', name: 'EMA', status, mode: 'PAPER', published: false, ...extra });

describe('allowedActions', () => {
  it('follows the strategy life: deploy a DRAFT or STOPPED one, pause an ACTIVE one, resume a PAUSED one, stop either', () => {
    expect(allowedActions(ADVANCED, mine('DRAFT'))).toEqual(['deploy', 'publish', 'delete']);
    expect(allowedActions(ADVANCED, mine('ACTIVE', { published: true }))).toEqual(['pause', 'stop', 'square-off', 'unpublish']);
    expect(allowedActions(ADVANCED, mine('PAUSED'))).toEqual(['resume', 'stop', 'square-off', 'publish']);
    expect(allowedActions(ADVANCED, mine('STOPPED'))).toEqual(['deploy', 'publish', 'delete']);
  });

  it('offers nothing on a strategy of someone else, or to a role that may not write strategies', () => {
    expect(allowedActions(ADVANCED, mine('ACTIVE', { user_id: 'u2' }))).toEqual([]);
    expect(allowedActions({ ...ADVANCED, role: 'basic' }, mine('DRAFT'))).toEqual([]);
  });

  it('keeps deploy and resume from a user without strategy:deploy, and a paper-only plan off a LIVE strategy', () => {
    const noDeploy = { ...ADVANCED, permissions: [] };
    expect(allowedActions(noDeploy, mine('DRAFT'))).toEqual(['publish', 'delete']);
    expect(allowedActions(noDeploy, mine('PAUSED'))).toEqual(['stop', 'square-off', 'publish']);
    expect(allowedActions({ ...ADVANCED, role: 'demo' }, mine('STOPPED', { mode: 'LIVE' }))).toEqual(['publish', 'delete']);
  });

  it('deploys only algo strategies', () => {
    expect(allowedActions(ADVANCED, mine('DRAFT', { kind: 'basket' }))).toEqual(['publish', 'delete']);
  });
});

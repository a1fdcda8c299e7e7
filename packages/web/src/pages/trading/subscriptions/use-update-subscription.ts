// update_subscription from the screen: one call, a toast for the outcome (the server's message,
// which names the field, on a refusal).
import { useCallback } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { errorMessage } from '../parts/QueryState';
import type { FollowDraft } from './follow-mode';
import { followArgs } from './follow-mode';
import { UPDATE, UPDATE_FOLLOW } from './queries';

export interface SubscriptionChange {
  readonly sizing?: 'quantity' | 'investment';
  readonly quantity?: number;
  /** Paise; appended to the investment history, dated today. */
  readonly investmentPaise?: number;
  readonly paused?: boolean;
  readonly active?: boolean;
  /** The mode and the broker account, sent together (the edit dialog); absent: unchanged. */
  readonly follow?: FollowDraft;
}

export function useUpdateSubscription(): { update: (id: string, change: SubscriptionChange, done: string) => Promise<boolean>; busy: boolean } {
  const [state, run] = useMutation(UPDATE);
  const [followState, runFollow] = useMutation(UPDATE_FOLLOW);
  const update = useCallback(async (id: string, change: SubscriptionChange, done: string): Promise<boolean> => {
    const sizing = {
      id, sizing: change.sizing ?? null, quantity: change.quantity ?? null,
      investment: change.investmentPaise === undefined ? null : String(change.investmentPaise),
    };
    const result = change.follow === undefined
      ? await run({ ...sizing, paused: change.paused ?? null, active: change.active ?? null })
      : await runFollow({ ...sizing, ...followArgs(change.follow) });
    if (result.error) {
      showToast('error', errorMessage(result.error));
      return false;
    }
    showToast('success', done);
    return true;
  }, [run, runFollow]);
  return { update, busy: state.fetching || followState.fetching };
}

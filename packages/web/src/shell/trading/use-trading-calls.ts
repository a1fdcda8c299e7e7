// The header's trading calls as hooks: the live switch rows, the user the header acts on, a
// ticking clock for countdowns, and a mutation runner that toasts the server's refusal in words.
import { useEffect, useState } from 'react';
import { useClient, useSubscription, type CombinedError } from 'urql';
import { showToast } from '../../app/toast';
import { useAppStore } from '../../stores/app-store';
import { KILL_SWITCHES_SUBSCRIPTION } from './trading-documents';
import { switchOf, type KillSwitchRow, type SwitchState } from './kill-switch-state';

/** The account the header's controls act on: the managed user while a manager acts for one, else the signed-in user. */
export function useTargetUserId(userId: string): string {
  return useAppStore((state) => state.managedUserId) ?? userId;
}

/** Now, moving once a second (a countdown's clock; nothing is fetched). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export interface KillSwitches {
  readonly own: SwitchState;
  readonly global: SwitchState;
  /** The own switch's changed_at as the server wrote it (what the orders are compared with). */
  readonly ownSince: string | undefined;
  readonly error: CombinedError | undefined;
}

/** The account's switch and the global one, live. */
export function useKillSwitches(targetUserId: string): KillSwitches {
  const [result] = useSubscription<{ kill_switches: KillSwitchRow[] }>({ query: KILL_SWITCHES_SUBSCRIPTION, variables: { user_id: targetUserId } });
  const rows = result.data?.kill_switches;
  return {
    own: switchOf(rows, targetUserId),
    global: switchOf(rows, null),
    ownSince: rows?.find((row) => row.user_id === targetUserId)?.changed_at,
    error: result.error,
  };
}

/** The server's own words for a failed call. */
export function errorText(error: CombinedError): string {
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message.replace(/^\[(GraphQL|Network)\]\s*/, '');
}

/** Runs a mutation; resolves its data, or undefined after toasting the refusal. */
export function useRunMutation(): <T>(document: string, variables: Record<string, unknown>) => Promise<T | undefined> {
  const client = useClient();
  return async <T,>(document: string, variables: Record<string, unknown>): Promise<T | undefined> => {
    const result = await client.mutation<T>(document, variables).toPromise();
    if (result.error !== undefined) {
      showToast('error', errorText(result.error));
      return undefined;
    }
    return result.data;
  };
}

// The signed-in user's stored payoff positions, followed live (a GraphQL subscription on their
// user_app_configs rows of category `payoff`), and the one write: replace one index's set
// (payoff-storage.ts: an upsert of that index's row only). Also takes over what the option
// chain's "Open in payoff" handed over through sessionStorage, once, newest wins.
import type { PayoffPosition } from '@vyuha/engine';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useSubscription, type CombinedError } from 'urql';
import { loadPositions, PAYOFF_STORAGE_KEY } from '../research/payoff-store';
import { handedOverSets, PAYOFF_CONFIG_CATEGORY, payoffConfigObject, positionsFromConfigs, type PayoffConfigRow } from './payoff-storage';

const PAYOFF_CONFIGS = `
  subscription PayoffPositions($user_id: uuid!) {
    user_app_configs(where: { user_id: { _eq: $user_id }, category: { _eq: "${PAYOFF_CONFIG_CATEGORY}" } }) { category subcategory meta_data }
  }`;

const SAVE_PAYOFF = `
  mutation SavePayoffPositions($object: user_app_configs_insert_input!) {
    insert_user_app_configs_one(object: $object, on_conflict: { constraint: user_app_configs_pkey, update_columns: [meta_data] }) { subcategory }
  }`;

export interface PayoffPositionsState {
  /** Undefined until the first answer. */
  readonly positions: readonly PayoffPosition[] | undefined;
  readonly error: CombinedError | undefined;
  readonly saving: boolean;
  /** Why the option chain's hand-over could not be saved, if it could not. */
  readonly handOverError: string | undefined;
  /** Replaces every stored position of `indice` with `positions`; resolves to the error message, or undefined when saved. */
  readonly replaceIndex: (indice: string, positions: readonly PayoffPosition[]) => Promise<string | undefined>;
}

export function usePayoffPositions(userId: string): PayoffPositionsState {
  const [result] = useSubscription<{ user_app_configs: PayoffConfigRow[] }>({ query: PAYOFF_CONFIGS, variables: { user_id: userId } });
  const [saveState, save] = useMutation(SAVE_PAYOFF);
  const rows = result.data?.user_app_configs;
  const positions = useMemo(() => (rows === undefined ? undefined : positionsFromConfigs(rows)), [rows]);

  const replaceIndex = useCallback(async (indice: string, replacement: readonly PayoffPosition[]): Promise<string | undefined> => {
    let object;
    try {
      object = payoffConfigObject(indice, replacement);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    const saved = await save({ object });
    return saved.error === undefined ? undefined : saved.error.graphQLErrors[0]?.message ?? saved.error.message;
  }, [save]);

  const handOverError = useHandOver(positions, replaceIndex);
  return { positions, error: result.error, saving: saveState.fetching, handOverError, replaceIndex };
}

/** Once the stored positions are known: saves the chain's hand-over (the newer index sets), then forgets it. */
function useHandOver(positions: readonly PayoffPosition[] | undefined, replaceIndex: PayoffPositionsState['replaceIndex']): string | undefined {
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const started = useRef(false);
  useEffect(() => {
    if (positions === undefined || started.current) return;
    started.current = true;
    let handover: PayoffPosition[] = [];
    try {
      handover = loadPositions();
    } catch {
      // No storage: nothing was handed over.
    }
    const sets = handedOverSets(handover, positions);
    void (async () => {
      const failures = (await Promise.all(sets.map((set) => replaceIndex(set.indice, set.positions)))).filter((message) => message !== undefined);
      // Kept when a save failed, so the next visit tries again.
      if (failures.length > 0) {
        setFailure(`The option chain's positions could not be saved: ${failures.join('; ')}`);
        return;
      }
      try {
        sessionStorage.removeItem(PAYOFF_STORAGE_KEY);
      } catch {
        // Nothing to forget without storage.
      }
    })();
  }, [positions, replaceIndex]);
  return failure;
}

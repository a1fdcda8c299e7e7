// The user's open option and futures positions on one index, from PAPER and LIVE runs (never a
// backtest's), followed live through a GraphQL subscription on `positions`.
import { useMemo } from 'react';
import { useSubscription, type CombinedError } from 'urql';
import { HELD_RUN_KINDS, type LivePositionRow } from './payoff-legs';

const LIVE_POSITIONS = `
  subscription PayoffLivePositions($user_id: uuid!, $underlying: Int!, $kinds: [String!]!) {
    positions(
      where: {
        net_quantity: { _neq: 0 }
        run: { user_id: { _eq: $user_id }, kind: { _in: $kinds } }
        instrument: { underlying_instrument_id: { _eq: $underlying }, kind: { _in: ["option", "future"] } }
      }
      order_by: [{ instrument_id: asc }, { run_id: asc }]
    ) {
      run_id instrument_id net_quantity open_cost_paise
      instrument { trading_symbol kind expiry strike_paise option_type }
      run { kind }
    }
  }`;

export interface LivePositionsState {
  /** Undefined until the first answer. */
  readonly rows: readonly LivePositionRow[] | undefined;
  readonly error: CombinedError | undefined;
}

/** `underlying`: the index's instrument id; paused while it is unknown. */
export function useLivePositions(userId: string, underlying: number | undefined): LivePositionsState {
  const variables = useMemo(() => ({ user_id: userId, underlying: underlying ?? 0, kinds: [...HELD_RUN_KINDS] }), [userId, underlying]);
  const [result] = useSubscription<{ positions: LivePositionRow[] }>({ query: LIVE_POSITIONS, variables, pause: underlying === undefined });
  return { rows: result.data?.positions, error: result.error };
}

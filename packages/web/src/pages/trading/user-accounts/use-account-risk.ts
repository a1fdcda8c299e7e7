// The live data of /userAccounts' risk columns: the accounts' settings (account_risk) and their day
// on the selected date (account_risk_days: the runtime's record of the day P&L, open positions,
// investment and broker session state, and a halt), both as subscriptions; and the change
// (set_account_risk: the server checks the role, the manager link and every value).
import { useMemo } from 'react';
import { useMutation, useSubscription, type CombinedError } from 'urql';
import type { AccountRiskRow, RiskKey } from './risk-columns';

const RISK_SUBSCRIPTION = `
  subscription AccountRisk($ids: [uuid!]!) {
    account_risk(where: { user_broker_id: { _in: $ids } }) {
      user_broker_id enable_sl sl default_sl trail_enabled trail_mode trail_tsl enable_target tgt default_tgt trail_ttg levels_day updated_at
    }
  }`;

const DAYS_SUBSCRIPTION = `
  subscription AccountRiskDays($ids: [uuid!]!, $day: date!) {
    account_risk_days(where: { user_broker_id: { _in: $ids }, trading_day: { _eq: $day } }) {
      user_broker_id pnl_paise peak_pnl_paise open_positions investment_paise session_state halted_at halt_kind halt_message updated_at
    }
  }`;

const UPDATE_MUTATION = `
  mutation UpdateAccountRisk($ids: [uuid!]!, $changes: account_risk_changes!) {
    set_account_risk(user_broker_ids: $ids, changes: $changes) { user_broker_ids }
  }`;

/** An account's day as the runtime recorded it. */
export interface AccountDayRow {
  readonly user_broker_id: string;
  readonly pnl_paise: number | string;
  readonly peak_pnl_paise: number | string;
  readonly open_positions: number;
  readonly investment_paise: number | string;
  readonly session_state: string;
  readonly halted_at: string | null;
  readonly halt_kind: string | null;
  readonly halt_message: string | null;
  readonly updated_at: string;
}

export interface AccountRiskData {
  readonly settings: ReadonlyMap<string, AccountRiskRow>;
  readonly days: ReadonlyMap<string, AccountDayRow>;
  readonly fetching: boolean;
  readonly error: CombinedError | undefined;
}

/** The settings and the day `day` of the accounts `ids`, kept live. */
export function useAccountRisk(ids: readonly string[], day: string | undefined): AccountRiskData {
  const variables = useMemo(() => ({ ids: [...ids] }), [ids]);
  const dayVariables = useMemo(() => ({ ids: [...ids], day: day ?? '' }), [ids, day]);
  const [settings] = useSubscription<{ account_risk: AccountRiskRow[] }>({ query: RISK_SUBSCRIPTION, variables, pause: ids.length === 0 });
  const [days] = useSubscription<{ account_risk_days: AccountDayRow[] }>({ query: DAYS_SUBSCRIPTION, variables: dayVariables, pause: ids.length === 0 || day === undefined });
  return useMemo(() => ({
    settings: new Map((settings.data?.account_risk ?? []).map((row) => [row.user_broker_id, row])),
    days: new Map((days.data?.account_risk_days ?? []).map((row) => [row.user_broker_id, row])),
    fetching: ids.length > 0 && (settings.data === undefined || (day !== undefined && days.data === undefined)) && settings.error === undefined && days.error === undefined,
    error: settings.error ?? days.error,
  }), [settings.data, settings.error, days.data, days.error, ids.length, day]);
}

/** A change of some columns of some accounts. */
export type RiskChanges = Partial<Record<RiskKey, boolean | number | string>>;

/** The change action: resolves with the server's refusal in words, or undefined when written. */
export function useUpdateAccountRisk(): { readonly saving: boolean; update(ids: readonly string[], changes: RiskChanges): Promise<string | undefined> } {
  const [state, run] = useMutation<{ set_account_risk: { user_broker_ids: string[] } }>(UPDATE_MUTATION);
  return {
    saving: state.fetching,
    async update(ids, changes) {
      const result = await run({ ids: [...ids], changes });
      if (result.error === undefined) return undefined;
      return result.error.graphQLErrors.map((error) => error.message).join('; ') || result.error.message;
    },
  };
}

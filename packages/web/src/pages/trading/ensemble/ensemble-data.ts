// The GraphQL documents and answer shapes of /ensembleSync (packages/server/src/graphql/actions/ensemble-actions.ts).
import { isoDate } from '@vyuha/core';

/** docs/PRODUCT.md section 9: the earliest ensemble sync date (the server refuses earlier ones too). */
export const MIN_ENSEMBLE_SYNC_DATE = isoDate('2021-01-01');

export const ENSEMBLES_QUERY = `query Ensembles { ensembles { ensemble_id name owner_name members accounts last_sync_at } }`;

export const CREATE_ENSEMBLE_MUTATION = `mutation CreateEnsemble($name: String!) { create_ensemble(name: $name) { ensemble_id } }`;

export const ENSEMBLE_DETAIL_QUERY = `query EnsembleDetail($id: uuid!, $asOf: String, $from: String) {
  ensemble_detail(ensemble_id: $id, as_of: $asOf, history_from: $from) {
    ensemble_id name as_of
    members { strategy_id name weight run_id run_kind investment_paise positions { instrument_id symbol quantity } }
    accounts { user_broker_id user_name client_id investment_paise mode active in_sync rows { instrument_id symbol lot_size target actual drift } }
    history {
      sync_id actor_name as_of status orders_count filled_count accounts_count created_at
      orders { user_broker_id client_id symbol side quantity mode estimated_price_paise estimated_charges_paise run_id order_id status message average_price_paise }
    }
    candidate_members { id label }
    candidate_accounts { id label }
  }
}`;

export const PREVIEW_QUERY = `query EnsemblePreview($id: uuid!, $asOf: String) {
  ensemble_sync_preview(ensemble_id: $id, as_of: $asOf) {
    preview_token as_of charges_paise
    orders { user_broker_id client_id mode instrument_id symbol side quantity lot_size estimated_price_paise estimated_charges_paise }
  }
}`;

export const APPLY_MUTATION = `mutation EnsembleApply($id: uuid!, $token: String!, $asOf: String) {
  ensemble_sync_apply(ensemble_id: $id, preview_token: $token, as_of: $asOf) { sync_id status already_applied }
}`;

export const SET_MEMBER_MUTATION = `mutation SetEnsembleMember($id: uuid!, $member: uuid!, $weight: Float) {
  set_ensemble_member(ensemble_id: $id, member_strategy_id: $member, weight: $weight) { ensemble_id }
}`;

export const REMOVE_MEMBER_MUTATION = `mutation RemoveEnsembleMember($id: uuid!, $member: uuid!) {
  remove_ensemble_member(ensemble_id: $id, member_strategy_id: $member) { ensemble_id }
}`;

export const SET_ACCOUNT_MUTATION = `mutation SetEnsembleAccount($id: uuid!, $account: uuid!, $investment: Float, $mode: String, $active: Boolean) {
  set_ensemble_account(ensemble_id: $id, user_broker_id: $account, investment_paise: $investment, mode: $mode, active: $active) { ensemble_id }
}`;

export const REMOVE_ACCOUNT_MUTATION = `mutation RemoveEnsembleAccount($id: uuid!, $account: uuid!) {
  remove_ensemble_account(ensemble_id: $id, user_broker_id: $account) { ensemble_id }
}`;

export interface EnsembleSummary {
  readonly ensemble_id: string;
  readonly name: string;
  readonly owner_name: string;
  readonly members: number;
  readonly accounts: number;
  readonly last_sync_at: string | null;
}

export interface EnsembleMember {
  readonly strategy_id: string;
  readonly name: string;
  readonly weight: number;
  readonly run_id: string | null;
  readonly run_kind: string | null;
  readonly investment_paise: number;
  readonly positions: readonly { readonly instrument_id: number; readonly symbol: string; readonly quantity: number }[];
}

export interface DriftRow {
  readonly instrument_id: number;
  readonly symbol: string;
  readonly lot_size: number;
  readonly target: number;
  readonly actual: number;
  readonly drift: number;
}

export interface EnsembleAccount {
  readonly user_broker_id: string;
  readonly user_name: string;
  readonly client_id: string;
  readonly investment_paise: number;
  readonly mode: 'PAPER' | 'LIVE';
  readonly active: boolean;
  readonly in_sync: boolean;
  readonly rows: readonly DriftRow[];
}

export interface SyncOrder {
  readonly user_broker_id: string;
  readonly client_id: string;
  readonly symbol: string;
  readonly side: string;
  readonly quantity: number;
  readonly mode: string;
  readonly estimated_price_paise: number;
  readonly estimated_charges_paise: number;
  readonly run_id: string | null;
  readonly order_id: string | null;
  readonly status: string;
  readonly message: string | null;
  readonly average_price_paise: number | null;
}

export interface SyncRecord {
  readonly sync_id: string;
  readonly actor_name: string | null;
  readonly as_of: string;
  readonly status: string;
  readonly orders_count: number;
  readonly filled_count: number;
  readonly accounts_count: number;
  readonly created_at: string;
  readonly orders: readonly SyncOrder[];
}

export interface Candidate {
  readonly id: string;
  readonly label: string;
}

export interface EnsembleDetailData {
  readonly ensemble_id: string;
  readonly name: string;
  readonly as_of: string;
  readonly members: readonly EnsembleMember[];
  readonly accounts: readonly EnsembleAccount[];
  readonly history: readonly SyncRecord[];
  readonly candidate_members: readonly Candidate[];
  readonly candidate_accounts: readonly Candidate[];
}

export interface PreviewOrder {
  readonly user_broker_id: string;
  readonly client_id: string;
  readonly mode: string;
  readonly instrument_id: number;
  readonly symbol: string;
  readonly side: string;
  readonly quantity: number;
  readonly lot_size: number;
  readonly estimated_price_paise: number;
  readonly estimated_charges_paise: number;
}

export interface SyncPreview {
  readonly preview_token: string;
  readonly as_of: string;
  readonly charges_paise: number;
  readonly orders: readonly PreviewOrder[];
}

/** The date field's error, or undefined when it is a date from 2021-01-01 to today. */
export function dateError(label: string, value: string, today: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${label}: choose a date`;
  if (value < MIN_ENSEMBLE_SYNC_DATE) return `${label}: the earliest ensemble sync date is ${MIN_ENSEMBLE_SYNC_DATE}`;
  if (value > today) return `${label}: ${value} is after today (${today})`;
  return undefined;
}

/**
 * The newest change among the positions the screen's figures come from: the members' counting runs
 * and the accounts' ensemble runs (their strategy is the ensemble). A new value means the drift moved.
 */
export const ENSEMBLE_POSITIONS_SUBSCRIPTION = `subscription EnsemblePositions($runs: [uuid!]!, $ensemble: uuid!) {
  positions(where: { _or: [{ run_id: { _in: $runs } }, { run: { strategy_id: { _eq: $ensemble } } }] }, order_by: { updated_at: desc }, limit: 1) {
    run_id instrument_id net_quantity updated_at
  }
}`;

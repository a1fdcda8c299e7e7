// Broker accounts (table user_brokers, docs/DATA-MODEL.md): GraphQL documents, row shapes and the
// investment rules of docs/PRODUCT.md section 5 (typed rupees become paise in format/money-input.ts).

import type { BrokerOwnership } from './broker-ownership';

export interface InvestmentEntry {
  readonly date: string;
  readonly amount_paise: number;
}

export interface UserBrokerRow {
  readonly user_broker_id: string;
  readonly broker: string;
  readonly client_id: string;
  readonly active: boolean;
  readonly api_key: string | null;
  readonly investment_amt_paise: number;
  readonly investment_history: readonly InvestmentEntry[];
  readonly broker_info: { readonly name: string } | null;
  /** Settled by the broker login (broker-ownership.ts). */
  readonly ownership: BrokerOwnership;
  readonly ownership_checked_at: string | null;
}

export interface BrokerOption {
  readonly broker: string;
  readonly name: string;
}

export interface BrokersData {
  readonly user_brokers: readonly UserBrokerRow[];
  readonly brokers: readonly BrokerOption[];
}

// Filtered by user: staff may read every user's broker accounts, this page shows one user's.
export const BROKERS_QUERY = `query AccountBrokers($userId: uuid!) {
  user_brokers(where: { user_id: { _eq: $userId } }, order_by: [{ broker: asc }, { client_id: asc }]) {
    user_broker_id broker client_id active api_key investment_amt_paise investment_history
    ownership ownership_checked_at
    broker_info { name }
  }
  brokers(where: { active: { _eq: true } }, order_by: { name: asc }) { broker name }
}`;

// The secret columns are hidden from every role; only these may be inserted (user_id is preset).
export const INSERT_BROKER_MUTATION = `mutation AccountAddBroker($object: user_brokers_insert_input!) {
  insert_user_brokers_one(object: $object) { user_broker_id }
}`;

/** The server encrypts the secret (AES-256-GCM) and never returns it. */
export const SET_BROKER_SECRET_MUTATION = `mutation AccountSetBrokerSecret($id: uuid!, $secret: String!) {
  set_broker_secret(user_broker_id: $id, api_secret: $secret) { user_broker_id key_id }
}`;

export const UPDATE_BROKER_MUTATION = `mutation AccountUpdateBroker($id: uuid!, $set: user_brokers_set_input!) {
  update_user_brokers_by_pk(pk_columns: { user_broker_id: $id }, _set: $set) { user_broker_id active investment_amt_paise investment_history }
}`;

export const DELETE_BROKER_MUTATION = `mutation AccountDeleteBroker($id: uuid!) {
  delete_user_brokers_by_pk(user_broker_id: $id) { user_broker_id }
}`;

/** The database's rule for a broker client id (user_brokers.client_id CHECK). */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{2,32}$/;

/**
 * docs/PRODUCT.md section 5: the latest history entry (greatest date) when there is one, otherwise
 * investment_amt_paise.
 */
export function effectiveInvestmentPaise(row: Pick<UserBrokerRow, 'investment_amt_paise' | 'investment_history'>): number {
  let latest: InvestmentEntry | undefined;
  for (const entry of row.investment_history) {
    if (!latest || entry.date > latest.date) latest = entry;
  }
  return Number(latest ? latest.amount_paise : row.investment_amt_paise);
}

/** docs/PRODUCT.md section 5: the investment total counts active broker accounts only. */
export function activeInvestmentTotalPaise(rows: readonly UserBrokerRow[]): number {
  return rows.filter((row) => row.active).reduce((total, row) => total + effectiveInvestmentPaise(row), 0);
}

/**
 * The history with `entry` recorded: an entry of the same date is replaced, the rest kept, in date
 * order. Writing the new amount to the history (not only to investment_amt_paise) is what makes it
 * the effective amount when the account already has a history.
 */
export function withHistoryEntry(history: readonly InvestmentEntry[], entry: InvestmentEntry): InvestmentEntry[] {
  return [...history.filter((existing) => existing.date !== entry.date), entry].sort((a, b) => a.date.localeCompare(b.date));
}

/** Where the browser goes to start the broker's daily login (docs/PRODUCT.md section 2's broker login redirects). */
export function brokerLoginPath(row: Pick<UserBrokerRow, 'broker' | 'client_id'>): string {
  return `/api/broker_login/${encodeURIComponent(row.broker)}/${encodeURIComponent(row.client_id)}`;
}


/** The day's session of the account ended here and at the broker (Kite: DELETE /session/token). */
export const DISCONNECT_BROKER_MUTATION = `mutation AccountDisconnectBroker($id: uuid!) {
  disconnect_broker(user_broker_id: $id) { user_broker_id broker_confirmed message }
}`;

export interface DisconnectBrokerAnswer {
  readonly user_broker_id: string;
  /** True when the broker confirmed it ended the session; false when it had none, had ended it already or was unreachable. */
  readonly broker_confirmed: boolean;
  readonly message: string;
}

/** Only Zerodha accounts have a session to end: no other broker logs in yet. */
export function canLogOutOfBroker(row: Pick<UserBrokerRow, 'broker'>): boolean {
  return row.broker === 'zerodha';
}

/**
 * The confirmation asked before ending the session.
 * @example brokerLogoutQuestion({ client_id: 'ZR7314' }) // "End today's Zerodha session for ZR7314? LIVE strategies of ..."
 */
export function brokerLogoutQuestion(row: Pick<UserBrokerRow, 'client_id'>): string {
  return `End today's Zerodha session for ${row.client_id}? LIVE strategies of this account stop sending entries until you log in again.`;
}

/**
 * The notification of the answer: its message as a sentence; success when the broker confirmed,
 * info otherwise (the session is ended here either way, and the message says what the broker did).
 * @example brokerLogoutNotice({ broker_confirmed: true, message: 'the session of ZR7314 is ended' }) // { severity: 'success', text: 'The session of ZR7314 is ended.' }
 */
export function brokerLogoutNotice(answer: Pick<DisconnectBrokerAnswer, 'broker_confirmed' | 'message'>): { severity: 'success' | 'info'; text: string } {
  const trimmed = answer.message.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  const text = capitalised === '' || /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
  return { severity: answer.broker_confirmed ? 'success' : 'info', text };
}

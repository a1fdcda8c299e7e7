// The trading report as the server computes it (GraphQL `trading_report` for managers and
// superadmins, `shared_report(token)` for anyone holding a link): the query texts, the answer's
// types and the share-link operations. The page never adds P&L up itself: every figure, totals
// included, comes from the server's fold of the stored fills (packages/server/src/reports/).
// bigint paise may arrive as numbers or strings; `paise()` reads either.

export const CHARGE_COLUMNS = [
  ['brokerage', 'Brokerage'], ['stt', 'STT'], ['exchange', 'Exchange txn'], ['ipft', 'IPFT'], ['sebi', 'SEBI'], ['stamp', 'Stamp duty'],
  ['gst', 'GST'], ['other', 'Other'],
] as const;

export type ChargeKey = (typeof CHARGE_COLUMNS)[number][0];
export type Paise = number | string;
export type Charges = Readonly<Record<ChargeKey, Paise>>;

export interface Figures {
  readonly realised_paise: Paise;
  readonly charges_paise: Paise;
  readonly net_pnl_paise: Paise;
  readonly fills: number;
  readonly orders: number;
  readonly max_drawdown_paise: Paise;
  readonly charges: Charges;
}

interface AccountFields {
  readonly user_id: string;
  readonly user_name: string;
  readonly user_broker_id: string | null;
  readonly broker: string | null;
  readonly client_id: string | null;
}

export interface UserRow extends Figures { readonly user_id: string; readonly name: string }
export interface StrategyRow extends Figures { readonly user_id: string; readonly user_name: string; readonly strategy_id: string | null; readonly name: string }
export interface AccountRow extends Figures, AccountFields {}
export interface DayRow extends Figures, AccountFields { readonly date: string }

export interface FillLine extends AccountFields {
  readonly fill_id: string;
  readonly ts: string;
  readonly strategy_name: string;
  readonly instrument: string;
  readonly exchange: string;
  readonly side: string;
  readonly quantity: number;
  readonly price_paise: Paise;
  readonly value_paise: Paise;
  readonly realised_paise: Paise;
  readonly charges_paise: Paise;
  readonly net_pnl_paise: Paise;
  readonly charges: Charges;
}

export interface TradingReport {
  readonly from: string;
  readonly to: string;
  readonly mode: string;
  readonly total: Figures;
  readonly users: readonly UserRow[];
  readonly strategies: readonly StrategyRow[];
  readonly accounts: readonly AccountRow[];
  readonly days: readonly DayRow[];
  readonly note_date: string | null;
  readonly note: readonly FillLine[];
}

/** A number of paise, from the JSON number or string the server sends. */
export function paise(value: Paise): number {
  return typeof value === 'number' ? value : Number(value);
}

const CHARGES = `charges { ${CHARGE_COLUMNS.map(([key]) => key).join(' ')} }`;
const FIGURES = `realised_paise charges_paise net_pnl_paise fills orders max_drawdown_paise ${CHARGES}`;
const ACCOUNT = 'user_id user_name user_broker_id broker client_id';

/** The selection of a whole report. */
export const REPORT_SELECTION = `from to mode note_date
  total { ${FIGURES} }
  users { user_id name ${FIGURES} }
  strategies { user_id user_name strategy_id name ${FIGURES} }
  accounts { ${ACCOUNT} ${FIGURES} }
  days { date ${ACCOUNT} ${FIGURES} }
  note { fill_id ts ${ACCOUNT} strategy_name instrument exchange side quantity price_paise value_paise realised_paise charges_paise net_pnl_paise ${CHARGES} }`;

export const TRADING_REPORT_QUERY = `query TradingReport($from: date!, $to: date!, $mode: String!, $userIds: [uuid!], $noteDate: date) {
  trading_report(from: $from, to: $to, mode: $mode, user_ids: $userIds, note_date: $noteDate) { ${REPORT_SELECTION} }
}`;

export const SHARED_REPORT_QUERY = `query SharedReport($token: String!, $noteDate: date) {
  shared_report(token: $token, note_date: $noteDate) { label report { ${REPORT_SELECTION} } }
}`;

export interface ReportShare {
  readonly share_id: string;
  readonly label: string;
  readonly user_names: readonly string[];
  readonly from: string;
  readonly to: string;
  readonly mode: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly active: boolean;
}

const SHARE_FIELDS = 'share_id label user_names from to mode created_at expires_at revoked_at active';

export const MY_SHARES_QUERY = `query MyReportShares { my_report_shares { ${SHARE_FIELDS} } }`;

export const CREATE_SHARE_MUTATION = `mutation CreateReportShare($from: date!, $to: date!, $mode: String!, $userIds: [uuid!], $label: String, $expiresAt: timestamptz) {
  create_report_share(from: $from, to: $to, mode: $mode, user_ids: $userIds, label: $label, expires_at: $expiresAt) { token share { ${SHARE_FIELDS} } }
}`;

export const REVOKE_SHARE_MUTATION = `mutation RevokeReportShare($shareId: uuid!) { revoke_report_share(share_id: $shareId) { ${SHARE_FIELDS} } }`;

/** The address of a link: /report#token=... on this site (in the fragment, so never in a server log). */
export function shareUrl(origin: string, token: string): string {
  return `${origin}/report#token=${encodeURIComponent(token)}`;
}

// The report actions of /reports and /report (../../reports/): `trading_report` (manager, superadmin:
// P&L, charges, orders and drawdown of their users' PAPER or LIVE runs, with one day's contract
// note), the share links `create_report_share`, `my_report_shares`, `revoke_report_share`, and
// `shared_report(token)`, the only thing an anonymous caller can read here.
//
// Invariants:
// - Every role outside manager and superadmin is refused by name (the fields are also absent
//   from their schemas); a manager naming a user they do not manage is refused with that user's id,
//   and nothing is read.
// - The reporter is the signed-in person (`x-hasura-actor-id`): a manager acting for a user still
//   reports on their own managed users, and owns the links they make.
// - `shared_report` answers the link's report or the single error "This report link is no longer
//   valid" (code not-found), whatever was wrong with the token; it reads nothing outside the link's scope.
// - Bad input is `validation-failed` naming the argument; nothing is written.
import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type pg from 'pg';
import { ANONYMOUS_ROLE, SIGNED_IN_ROLES } from '../metadata/roles';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { GraphqlFailure } from '../types';
import type { GraphqlSession } from '../types';
import { buildTradingReport, TRADING_MODES, type TradingMode, type TradingReport } from '../../reports/trading-report';
import {
  createReportShare, listReportShares, openReportShare, REPORT_ROLES, reportableUsers, revokeReportShare, type ReportShare,
} from '../../reports/report-shares';
import { actorId, isUuid, requireRole } from './session-access';

export const TRADING_REPORT = 'trading_report';
export const CREATE_REPORT_SHARE = 'create_report_share';
export const MY_REPORT_SHARES = 'my_report_shares';
export const REVOKE_REPORT_SHARE = 'revoke_report_share';
export const SHARED_REPORT = 'shared_report';

/** The message of every refused token (unknown, revoked, expired, owner without the right any more). */
export const SHARE_NOT_VALID = 'This report link is no longer valid';

/** Longest range a report covers (two years and a day): a request cannot make the server fold years of fills. */
export const MAX_REPORT_DAYS = 732;
const MAX_LABEL = 120;

const FIGURES = `
  realised_paise: bigint!
  charges_paise: bigint!
  """realised_paise - charges_paise: what the fills booked."""
  net_pnl_paise: bigint!
  fills: Int!
  orders: Int!
  """Largest fall of the running net P&L from an earlier peak, fill by fill."""
  max_drawdown_paise: bigint!
  charges: report_charges!`;

const ACCOUNT = `
  user_id: uuid!
  user_name: String!
  """Null for paper orders placed without a broker account."""
  user_broker_id: uuid
  broker: String
  client_id: String`;

export const REPORT_TYPES = `
"""Charges in paise by component, as the engine computes them per fill; other = components it does not name."""
type report_charges { brokerage: bigint! stt: bigint! exchange: bigint! ipft: bigint! sebi: bigint! stamp: bigint! gst: bigint! other: bigint! }
type report_figures {${FIGURES}
}
type report_user { user_id: uuid! name: String!${FIGURES}
}
type report_strategy { user_id: uuid! user_name: String! strategy_id: uuid name: String!${FIGURES}
}
type report_account {${ACCOUNT}${FIGURES}
}
type report_day { date: date!${ACCOUNT}${FIGURES}
}
"""One fill of the contract note."""
type report_fill {
  fill_id: uuid!
  ts: timestamptz!${ACCOUNT}
  strategy_name: String!
  instrument: String!
  exchange: String!
  side: String!
  quantity: Int!
  price_paise: bigint!
  value_paise: bigint!
  realised_paise: bigint!
  charges_paise: bigint!
  net_pnl_paise: bigint!
  charges: report_charges!
}
"""P&L of PAPER or LIVE runs (never backtests) over an IST date range; totals are sums over the fills."""
type trading_report {
  from: date!
  to: date!
  mode: String!
  total: report_figures!
  users: [report_user!]!
  strategies: [report_strategy!]!
  accounts: [report_account!]!
  days: [report_day!]!
  note_date: date
  note: [report_fill!]!
}
`;

export const SHARE_TYPES = `
type report_share {
  share_id: uuid!
  label: String!
  user_ids: [uuid!]!
  user_names: [String!]!
  from: date!
  to: date!
  mode: String!
  created_at: timestamptz!
  expires_at: timestamptz
  revoked_at: timestamptz
  active: Boolean!
}
type create_report_share_result {
  share: report_share!
  """Shown once: only its hash is stored."""
  token: String!
}
`;

export const SHARED_REPORT_TYPES = `
type shared_report_result {
  label: String!
  report: trading_report!
}
`;

const argumentPath = (action: string, name: string): string => `$.selectionSet.${action}.args.${name}`;

function isoDateArgument(action: string, args: Readonly<Record<string, unknown>>, name: string): IsoDate {
  const value = args[name];
  if (typeof value !== 'string' || !isIsoDate(value)) {
    throw new GraphqlFailure('validation-failed', `${name} must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`, argumentPath(action, name));
  }
  return value;
}

function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** from, to and mode, checked. */
function scopeArguments(action: string, args: Readonly<Record<string, unknown>>): { from: IsoDate; to: IsoDate; mode: TradingMode } {
  const from = isoDateArgument(action, args, 'from');
  const to = isoDateArgument(action, args, 'to');
  if (from > to) throw new GraphqlFailure('validation-failed', `from (${from}) must be on or before to (${to})`, argumentPath(action, 'from'));
  if (daysBetween(from, to) > MAX_REPORT_DAYS) {
    throw new GraphqlFailure('validation-failed', `the range ${from} to ${to} is longer than ${MAX_REPORT_DAYS} days`, argumentPath(action, 'to'));
  }
  const mode = args['mode'];
  if (typeof mode !== 'string' || !TRADING_MODES.includes(mode as TradingMode)) {
    throw new GraphqlFailure('validation-failed', `mode must be PAPER or LIVE (backtests are not trading), got ${JSON.stringify(mode)}`, argumentPath(action, 'mode'));
  }
  return { from, to, mode: mode as TradingMode };
}

function noteDateArgument(action: string, args: Readonly<Record<string, unknown>>, range: { from: IsoDate; to: IsoDate }): IsoDate | undefined {
  if (args['note_date'] === undefined || args['note_date'] === null) return undefined;
  const date = isoDateArgument(action, args, 'note_date');
  if (date < range.from || date > range.to) {
    throw new GraphqlFailure('validation-failed', `note_date ${date} is outside the report's range ${range.from} to ${range.to}`, argumentPath(action, 'note_date'));
  }
  return date;
}

/** The signed-in reporter; the admin secret reports as a superadmin. */
function reporterOf(session: GraphqlSession, action: string): { id: string; role: string } {
  requireRole(session, REPORT_ROLES, action);
  return { id: actorId(session), role: session.admin ? 'superadmin' : session.role };
}

/**
 * The users a request reports on: `user_ids` when given (each must be reportable, else refused by
 * id), else every reportable user.
 */
async function usersArgument(pool: pg.Pool, request: { action: string; args: Readonly<Record<string, unknown>>; reporter: { id: string; role: string } }): Promise<string[]> {
  const { action, args, reporter } = request;
  const reportable = await reportableUsers(pool, reporter);
  const raw = args['user_ids'];
  if (raw === undefined || raw === null) return reportable.map((user) => user.user_id);
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 500) {
    throw new GraphqlFailure('validation-failed', 'user_ids must list 1 to 500 user ids, or be left out for all your users', argumentPath(action, 'user_ids'));
  }
  const allowed = new Set(reportable.map((user) => user.user_id));
  const ids = [...new Set(raw.map((id: unknown) => String(id)))];
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw new GraphqlFailure('validation-failed', `user_ids: ${JSON.stringify(bad)} is not a user id`, argumentPath(action, 'user_ids'));
  const foreign = ids.find((id) => !allowed.has(id));
  if (foreign !== undefined) throw new GraphqlFailure('access-denied', `you do not manage user ${foreign}`, argumentPath(action, 'user_ids'));
  return ids;
}

/** The `trading_report` handler. */
export async function tradingReportAction(pool: pg.Pool, invocation: ActionInvocation): Promise<TradingReport> {
  const reporter = reporterOf(invocation.session, TRADING_REPORT);
  const range = scopeArguments(TRADING_REPORT, invocation.args);
  const noteDate = noteDateArgument(TRADING_REPORT, invocation.args, range);
  const userIds = await usersArgument(pool, { action: TRADING_REPORT, args: invocation.args, reporter });
  return buildTradingReport(pool, { ...range, userIds, ...(noteDate === undefined ? {} : { noteDate }) });
}

/** The `create_report_share` handler. */
export async function createReportShareAction(pool: pg.Pool, invocation: ActionInvocation): Promise<{ share: ReportShare; token: string }> {
  const reporter = reporterOf(invocation.session, CREATE_REPORT_SHARE);
  if (!isUuid(reporter.id)) throw new GraphqlFailure('permission-error', 'a report link needs a signed-in owner', '$');
  const range = scopeArguments(CREATE_REPORT_SHARE, invocation.args);
  const userIds = await usersArgument(pool, { action: CREATE_REPORT_SHARE, args: invocation.args, reporter });
  if (userIds.length === 0) throw new GraphqlFailure('validation-failed', 'user_ids: you have no users to report on', argumentPath(CREATE_REPORT_SHARE, 'user_ids'));
  if (userIds.length > 500) throw new GraphqlFailure('validation-failed', 'user_ids: a link covers at most 500 users; choose them', argumentPath(CREATE_REPORT_SHARE, 'user_ids'));
  const labelValue = invocation.args['label'] ?? '';
  if (typeof labelValue !== 'string' || labelValue.trim().length > MAX_LABEL) {
    throw new GraphqlFailure('validation-failed', `label must be text of at most ${MAX_LABEL} characters`, argumentPath(CREATE_REPORT_SHARE, 'label'));
  }
  const expiresValue = invocation.args['expires_at'];
  let expiresAt: string | null = null;
  if (expiresValue !== undefined && expiresValue !== null) {
    const ms = typeof expiresValue === 'string' ? Date.parse(expiresValue) : Number.NaN;
    if (!Number.isFinite(ms) || ms <= Date.now()) {
      throw new GraphqlFailure('validation-failed', `expires_at must be a time in the future, got ${JSON.stringify(expiresValue)}`, argumentPath(CREATE_REPORT_SHARE, 'expires_at'));
    }
    expiresAt = new Date(ms).toISOString();
  }
  return createReportShare(pool, { ownerId: reporter.id, userIds, ...range, label: labelValue.trim(), expiresAt });
}

/** The `my_report_shares` handler. */
export async function myReportSharesAction(pool: pg.Pool, invocation: ActionInvocation): Promise<ReportShare[]> {
  const reporter = reporterOf(invocation.session, MY_REPORT_SHARES);
  if (!isUuid(reporter.id)) return [];
  return listReportShares(pool, reporter.id);
}

/** The `revoke_report_share` handler. */
export async function revokeReportShareAction(pool: pg.Pool, invocation: ActionInvocation): Promise<ReportShare> {
  const reporter = reporterOf(invocation.session, REVOKE_REPORT_SHARE);
  const shareId = invocation.args['share_id'];
  if (!isUuid(shareId)) throw new GraphqlFailure('validation-failed', `share_id must be a link's id, got ${JSON.stringify(shareId)}`, argumentPath(REVOKE_REPORT_SHARE, 'share_id'));
  const share = isUuid(reporter.id) ? await revokeReportShare(pool, { ownerId: reporter.id, shareId }) : undefined;
  if (share === undefined) throw new GraphqlFailure('not-found', `you have no report link ${shareId}`, argumentPath(REVOKE_REPORT_SHARE, 'share_id'));
  return share;
}

/** The `shared_report` handler: anyone holding a live token. */
export async function sharedReportAction(pool: pg.Pool, invocation: ActionInvocation): Promise<{ label: string; report: TradingReport }> {
  const token = invocation.args['token'];
  // 32 bytes in base64url are 43 characters; anything else cannot be a token.
  const share = typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token) ? await openReportShare(pool, token) : undefined;
  if (share === undefined) throw new GraphqlFailure('not-found', SHARE_NOT_VALID, `$.selectionSet.${SHARED_REPORT}`);
  const noteDate = noteDateArgument(SHARED_REPORT, invocation.args, share);
  const report = await buildTradingReport(pool, {
    userIds: share.userIds, from: share.from, to: share.to, mode: share.mode, ...(noteDate === undefined ? {} : { noteDate }),
  });
  return { label: share.label, report };
}

/**
 * The report action declarations for the metadata.
 * @example reportActions({ pool }).map((action) => action.name) // ['trading_report', 'create_report_share', ...]
 */
export function reportActions(options: { readonly pool: pg.Pool }): ActionDeclaration[] {
  const { pool } = options;
  return [
    {
      name: TRADING_REPORT,
      kind: 'query',
      field: `${TRADING_REPORT}(from: date!, to: date!, mode: String!, user_ids: [uuid!], note_date: date): trading_report!`,
      // The report types come with shared_report, which every role holds.
      types: '',
      description: "P&L, charges, orders and drawdown of your users' PAPER or LIVE runs over an IST date range (both days included), per user, "
        + 'strategy and broker account and per day, computed from the stored fills; note_date adds that day\'s fills (the contract note).',
      roles: REPORT_ROLES,
      handler: (invocation) => tradingReportAction(pool, invocation),
    },
    {
      name: MY_REPORT_SHARES,
      kind: 'query',
      field: `${MY_REPORT_SHARES}: [report_share!]!`,
      types: SHARE_TYPES,
      description: 'The read-only report links you made, newest first (the tokens are never shown again).',
      roles: REPORT_ROLES,
      handler: (invocation) => myReportSharesAction(pool, invocation),
    },
    {
      name: CREATE_REPORT_SHARE,
      kind: 'mutation',
      field: `${CREATE_REPORT_SHARE}(from: date!, to: date!, mode: String!, user_ids: [uuid!], label: String, expires_at: timestamptz): create_report_share_result!`,
      // report_share comes with my_report_shares (the same roles).
      types: '',
      description: 'A read-only link (/report?token=...) to the report of these users (default: all yours), range and mode; the token is answered once.',
      roles: REPORT_ROLES,
      handler: (invocation) => createReportShareAction(pool, invocation),
    },
    {
      name: REVOKE_REPORT_SHARE,
      kind: 'mutation',
      field: `${REVOKE_REPORT_SHARE}(share_id: uuid!): report_share!`,
      types: '',
      description: 'Revokes one of your report links: from now on it shows only that it is no longer valid.',
      roles: REPORT_ROLES,
      handler: (invocation) => revokeReportShareAction(pool, invocation),
    },
    {
      name: SHARED_REPORT,
      kind: 'query',
      field: `${SHARED_REPORT}(token: String!, note_date: date): shared_report_result!`,
      types: `${REPORT_TYPES}${SHARED_REPORT_TYPES}`,
      description: 'The read-only report behind a link token (no sign-in needed); an invalid token is "This report link is no longer valid".',
      roles: [...SIGNED_IN_ROLES, ANONYMOUS_ROLE],
      handler: (invocation) => sharedReportAction(pool, invocation),
    },
  ];
}

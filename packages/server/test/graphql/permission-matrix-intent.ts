/**
 * The intent the permission matrix checks the metadata against, written independently of the
 * metadata's rule builders: who may write what, whose rows each role reads (as SQL over the
 * real tables), and the probe rows each writable table is exercised with.
 */
import type { PermissionWorld, WorldUser } from './permission-matrix-world';

export interface SqlQuery {
  readonly text: string;
  readonly params: readonly unknown[];
}

export type WriteOperation = 'insert' | 'update' | 'delete';

const SIGNED_IN = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support', 'user', 'me'];
const EVERYDAY_WRITERS = SIGNED_IN.filter((role) => role !== 'me');
const BUILDERS = ['advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin'];
const STAFF = ['administrator', 'superadmin'];
export const INTENT_MARKETPLACE = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'user'];
export const INTENT_PUBLIC_TABLES = ['exchanges', 'holidays', 'special_sessions', 'brokers', 'index_configs'];
const REFERENCE_TABLES = [
  ...INTENT_PUBLIC_TABLES, 'instruments', 'ltps', 'fno_expiries', 'index_monthly_closes', 'index_key_points', 'candles', 'eod_prices',
];
/** Tiers an administrator may not touch. */
const PROTECTED_TIERS = ['administrator', 'superadmin'];

export function isStaff(role: string): boolean {
  return STAFF.includes(role);
}

/** Who may write each table (own rows, or anyone's for `staffScoped` tables). */
export const WRITE_INTENT: Readonly<Record<string, Partial<Record<WriteOperation, readonly string[]>>>> = {
  users: { update: SIGNED_IN },
  user_permissions: { insert: STAFF, delete: STAFF },
  managers: { insert: STAFF, delete: STAFF },
  user_app_configs: { insert: SIGNED_IN, update: SIGNED_IN, delete: SIGNED_IN },
  user_brokers: { insert: EVERYDAY_WRITERS, update: EVERYDAY_WRITERS, delete: EVERYDAY_WRITERS },
  algorithms: { insert: BUILDERS, update: BUILDERS, delete: BUILDERS },
  algorithm_versions: { insert: BUILDERS },
  indicator_configs: { insert: BUILDERS, update: BUILDERS, delete: BUILDERS },
  strategies: { insert: BUILDERS, update: BUILDERS, delete: BUILDERS },
  subscriptions: { insert: EVERYDAY_WRITERS, update: EVERYDAY_WRITERS, delete: EVERYDAY_WRITERS },
  pending_signals: { update: EVERYDAY_WRITERS },
  user_credits: { insert: STAFF, update: STAFF, delete: STAFF },
  deployed_strategies: { insert: STAFF, update: STAFF, delete: STAFF },
};

/** Tables whose writes reach other users' rows for staff; `limited`: not rows of staff-tier users for administrators. */
const STAFF_SCOPED: Readonly<Record<string, { readonly limited: boolean }>> = {
  users: { limited: true },
  user_permissions: { limited: true },
  managers: { limited: true },
  user_credits: { limited: false },
  deployed_strategies: { limited: false },
};

/** Tables staff write for anyone but a user never writes for itself. */
const STAFF_ONLY = ['user_permissions', 'managers', 'user_credits', 'deployed_strategies'];

/** May `role`, acting as `acting`, change a row owned by `target`? */
export function mayWrite(options: { table: string; operation: WriteOperation; role: string; acting: WorldUser; target: WorldUser }): boolean {
  const { table, operation, role, acting, target } = options;
  if (!WRITE_INTENT[table]?.[operation]?.includes(role)) return false;
  const staffScope = STAFF_SCOPED[table];
  const withinLimit = !(role === 'administrator' && staffScope?.limited && PROTECTED_TIERS.includes(target.tier));
  if (STAFF_ONLY.includes(table)) return withinLimit;
  if (target.id === acting.id) return true;
  return staffScope !== undefined && isStaff(role) && withinLimit;
}

/** SQL for the user owning a row of `t` (null: reference data without an owner). */
const OWNER_SQL: Readonly<Record<string, string>> = {
  algorithm_versions: '(SELECT a.user_id FROM algorithms a WHERE a.algorithm_id = t.algorithm_id)',
  fills: '(SELECT o.user_id FROM orders o WHERE o.order_id = t.order_id)',
  positions: '(SELECT r.user_id FROM strategy_runs r WHERE r.run_id = t.run_id)',
  daily_pnl: '(SELECT r.user_id FROM strategy_runs r WHERE r.run_id = t.run_id)',
  account_risk: '(SELECT b.user_id FROM user_brokers b WHERE b.user_broker_id = t.user_broker_id)',
  account_risk_days: '(SELECT b.user_id FROM user_brokers b WHERE b.user_broker_id = t.user_broker_id)',
  sweep_results: '(SELECT s.user_id FROM sweeps s WHERE s.sweep_id = t.sweep_id)',
};

/** Account risk (migration 0026): an administrator reads only its own accounts; a superadmin all. */
const ACCOUNT_RISK_TABLES = ['account_risk', 'account_risk_days'];

/** Rows shared beyond their owner, and with whom. */
const SHARED_SQL: Readonly<Record<string, { readonly sql: string; readonly roles: readonly string[] }>> = {
  algorithms: { sql: 't.published', roles: INTENT_MARKETPLACE },
  algorithm_versions: { sql: '(SELECT a.published FROM algorithms a WHERE a.algorithm_id = t.algorithm_id)', roles: INTENT_MARKETPLACE },
  strategies: { sql: 't.published', roles: INTENT_MARKETPLACE },
  indicator_configs: { sql: 't.user_id IS NULL', roles: SIGNED_IN },
};

export interface Viewer {
  readonly role: string;
  /** Acting user (x-hasura-user-id) and signed-in user (x-hasura-actor-id); absent for anonymous. */
  readonly acting?: WorldUser;
  readonly actor?: WorldUser;
  /** The tier's x-hasura-W1m date. */
  readonly minuteCandlesFrom?: string;
}

/**
 * The SQL predicate (over alias `t`) of the rows `viewer` should read in `table`, with its
 * parameters; null when the viewer may not read the table at all.
 */
export function visibleRows(table: string, viewer: Viewer): SqlQuery | null {
  const { role, acting, actor } = viewer;
  if (role === 'anonymous') return INTENT_PUBLIC_TABLES.includes(table) ? { text: 'true', params: [] } : null;
  if (!acting || !actor) return null;
  if (table === 'candles') return { text: `(t.ts AT TIME ZONE 'Asia/Kolkata')::date >= $1::date`, params: [viewer.minuteCandlesFrom] };
  // Acting for users (migration 0030): by the signed-in id, as the manager or as the managed user; superadmin all.
  if (table === 'acting_audit') return role === 'superadmin' ? { text: 'true', params: [] } : { text: '(t.actor_id = $1 OR t.subject_id = $1)', params: [actor.id] };
  if (REFERENCE_TABLES.includes(table) || (isStaff(role) && !(ACCOUNT_RISK_TABLES.includes(table) && role === 'administrator'))) return { text: 'true', params: [] };
  if (table === 'users' && role === 'support') return { text: 'true', params: [] };
  if (table === 'managers') return { text: 't.manager_id = $2 OR t.user_id = $1', params: [acting.id, actor.id] };
  const owner = OWNER_SQL[table] ?? 't.user_id';
  const scoped = role === 'manager'
    ? `(${owner} = $1 OR ${owner} IN (SELECT m.user_id FROM managers m WHERE m.manager_id = $2))`
    : `(${owner} = $1 AND $2::uuid IS NOT NULL)`;
  const shared = SHARED_SQL[table];
  const text = shared && shared.roles.includes(role) ? `(${scoped} OR ${shared.sql})` : scoped;
  return { text, params: [acting.id, actor.id] };
}

/** What a write probe needs: the case's tag and number, the world, the acting user and the row owner. */
export interface ProbeContext {
  readonly tag: string;
  readonly number: number;
  readonly world: PermissionWorld;
  readonly acting: WorldUser;
  readonly owner: WorldUser;
}

export interface WriteProbe {
  /** The object inserted through GraphQL for the acting user (staff tables: for `owner`). */
  readonly insert?: (context: ProbeContext) => {
    readonly object: Record<string, unknown>;
    readonly count: SqlQuery;
    /** SQL run before the insert (after cleanup), e.g. removing a row the world has. */
    readonly prepare?: readonly SqlQuery[];
  };
  /** A probe row of `owner`: created with SQL, selected by `where`, `count` is 1 while it exists unchanged/changed. */
  readonly row?: (context: ProbeContext) => {
    readonly create: readonly SqlQuery[];
    readonly where: Record<string, unknown>;
    readonly set: Record<string, unknown>;
    readonly exists: SqlQuery;
    readonly changed: SqlQuery;
  };
  /** SQL removing every row the case may have made. */
  readonly cleanup: (context: ProbeContext) => readonly SqlQuery[];
}

/** A parameterised SQL statement. */
export function sql(text: string, ...params: unknown[]): SqlQuery {
  return { text, params };
}

/** The algorithm and strategy the world made for a user. */
export function rowsOf(context: ProbeContext, label: string): { algorithmId: string; strategyId: string } {
  const rows = context.world.rows.get(label);
  if (!rows) throw new Error(`no rows for ${label}`);
  return rows;
}

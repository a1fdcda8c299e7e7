// A broker account's risk settings (account_risk, migration 0026): reading what is in force on a day
// and changing them (/userAccounts, the set_account_risk action).
//
// Invariants:
// - Levels are whole hundredths of trail_mode's unit: POINTS = paise of the account's day P&L,
//   PERCENT = basis points of the account's investment (at most 10000). Never negative.
// - sl/tgt are the day's levels (IST date levels_day); another day starts from default_sl/default_tgt.
//   Any change rolls the row to today first (sl := default_sl and tgt := default_tgt when levels_day
//   is not today), then applies the change: after it levels_day is today.
// - Who changes them: a superadmin, or a manager linked to the account's user. Nobody else.
// - A change to several accounts is checked for every account first: one issue refuses the whole
//   change and nothing is written. Each issue names its field.
import { err, istDate, LEVEL_FIELDS, MAX_PERCENT_LEVEL, MAX_POINTS_LEVEL, ok, SWITCH_FIELDS, TRAIL_MODES } from '@vyuha/core';
import type { AccountRisk, Result } from '@vyuha/core';
import type pg from 'pg';
import { inTransaction } from './oms/order-rows';

/** A change: any of the ten columns. */
export type AccountRiskChanges = Partial<Omit<AccountRisk, 'levels_day'>>;

export interface RiskIssue {
  readonly field: string;
  readonly code: 'invalid-value' | 'not-found' | 'not-managed' | 'forbidden';
  readonly message: string;
}

/** The changes read from an action's arguments: each field's type, or the issues naming the fields. */
export function parseRiskChanges(input: unknown): Result<AccountRiskChanges, RiskIssue[]> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return err([{ field: 'changes', code: 'invalid-value', message: 'changes must be an object of the columns to change' }]);
  }
  const fields = input as Readonly<Record<string, unknown>>;
  const issues: RiskIssue[] = [];
  const changes: Record<string, unknown> = {};
  const known = new Set<string>([...LEVEL_FIELDS, ...SWITCH_FIELDS, 'trail_mode']);
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (!known.has(name)) {
      issues.push({ field: name, code: 'invalid-value', message: `${name}: not a risk setting (${[...known].join(', ')})` });
    } else if ((SWITCH_FIELDS as readonly string[]).includes(name)) {
      if (typeof value === 'boolean') changes[name] = value;
      else issues.push({ field: name, code: 'invalid-value', message: `${name}: must be true or false, got ${JSON.stringify(value)}` });
    } else if (name === 'trail_mode') {
      if ((TRAIL_MODES as readonly unknown[]).includes(value)) changes[name] = value;
      else issues.push({ field: name, code: 'invalid-value', message: `trail_mode: must be POINTS or PERCENT, got ${JSON.stringify(value)}` });
    } else {
      const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
      if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) changes[name] = number;
      else issues.push({ field: name, code: 'invalid-value', message: `${name}: must be a whole number of hundredths, 0 or more, got ${JSON.stringify(value)}` });
    }
  }
  if (issues.length === 0 && Object.keys(changes).length === 0) {
    issues.push({ field: 'changes', code: 'invalid-value', message: 'changes: name at least one column to change' });
  }
  return issues.length > 0 ? err(issues) : ok(changes as AccountRiskChanges);
}

/**
 * The settings after `changes` on IST date `on.today` (rolled to today first), or the issues of the
 * result, each naming its field; `on.label` names the account in the messages.
 */
export function applyRiskChanges(current: AccountRisk, changes: AccountRiskChanges, on: { readonly today: string; readonly label: string }): Result<AccountRisk, RiskIssue[]> {
  const { today, label } = on;
  const rolled: AccountRisk = current.levels_day === today ? current : { ...current, sl: current.default_sl, tgt: current.default_tgt };
  const merged: AccountRisk = { ...rolled, ...changes, levels_day: today };
  // A default changed on a day whose level was only rolled from it follows it.
  const next: AccountRisk = {
    ...merged,
    sl: changes.sl ?? (current.levels_day === today ? merged.sl : merged.default_sl),
    tgt: changes.tgt ?? (current.levels_day === today ? merged.tgt : merged.default_tgt),
  };
  const issues: RiskIssue[] = [];
  const max = next.trail_mode === 'PERCENT' ? MAX_PERCENT_LEVEL : MAX_POINTS_LEVEL;
  const unit = next.trail_mode === 'PERCENT' ? '100%' : '₹100 crore';
  for (const field of LEVEL_FIELDS) {
    if (next[field] > max) issues.push({ field, code: 'invalid-value', message: `${field}: at most ${unit} in ${next.trail_mode} mode (${label})` });
  }
  if (next.enable_sl && next.sl <= 0) issues.push({ field: 'sl', code: 'invalid-value', message: `sl: set a stop-loss above 0 to turn enableSl on (${label})` });
  if (next.enable_sl && next.default_sl <= 0) issues.push({ field: 'default_sl', code: 'invalid-value', message: `default_sl: set a default stop-loss above 0 to turn enableSl on (${label})` });
  if (next.enable_target && next.tgt <= 0) issues.push({ field: 'tgt', code: 'invalid-value', message: `tgt: set a target above 0 to turn enableTarget on (${label})` });
  if (next.enable_target && next.default_tgt <= 0) {
    issues.push({ field: 'default_tgt', code: 'invalid-value', message: `default_tgt: set a default target above 0 to turn enableTarget on (${label})` });
  }
  if (next.trail_enabled && next.trail_tsl <= 0 && !(next.trail_ttg > 0 && next.enable_target)) {
    issues.push({ field: 'trail_tsl', code: 'invalid-value', message: `trail_tsl: set a trailing stop above 0 (or trail_ttg with enableTarget on) to turn trail_enabled on (${label})` });
  }
  return issues.length > 0 ? err(issues) : ok(next);
}

export interface RiskUpdateRequest {
  /** The signed-in person. */
  readonly actorId: string;
  /** Their role (superadmin changes any account; a manager only those of users linked to them). */
  readonly role: string;
  readonly userBrokerIds: readonly string[];
  readonly changes: AccountRiskChanges;
  readonly nowMs?: number;
}

interface AccountRow extends AccountRisk {
  readonly user_broker_id: string;
  readonly user_id: string;
  readonly client_id: string;
  readonly broker: string;
  readonly managed: boolean;
  readonly stored: boolean;
}

const COLUMNS = 'enable_sl, sl, default_sl, trail_enabled, trail_mode, trail_tsl, enable_target, tgt, default_tgt, trail_ttg';

/**
 * Changes the settings of every account named, or none: refused for a role other than manager and
 * superadmin, an account not found or (for a manager) of a user not linked to them, and any value
 * that breaks the rules above. Writes an audit row per account.
 * @example await updateAccountRisk(pool, { actorId, role: 'manager', userBrokerIds: [id], changes: { enable_sl: true, sl: 500000, default_sl: 500000 } })
 */
export async function updateAccountRisk(pool: pg.Pool, request: RiskUpdateRequest): Promise<Result<{ readonly userBrokerIds: readonly string[] }, RiskIssue[]>> {
  if (request.role !== 'manager' && request.role !== 'superadmin') {
    return err([{ field: 'user_broker_ids', code: 'forbidden', message: `role ${request.role} may not change account risk settings: a manager of the account's user or a superadmin may` }]);
  }
  const ids = [...new Set(request.userBrokerIds)];
  if (ids.length === 0) return err([{ field: 'user_broker_ids', code: 'invalid-value', message: 'user_broker_ids: name at least one broker account' }]);
  const today = istDate(request.nowMs ?? Date.now());
  const outcome = await inTransaction(pool, async (client) => {
    const { rows } = await client.query<AccountRow>(
      `SELECT ub.user_broker_id, ub.user_id, ub.client_id, ub.broker, ar.user_broker_id IS NOT NULL AS stored,
              EXISTS (SELECT 1 FROM managers m WHERE m.manager_id = $2 AND m.user_id = ub.user_id) AS managed,
              coalesce(ar.enable_sl, false) AS enable_sl, coalesce(ar.sl, 0)::float8 AS sl, coalesce(ar.default_sl, 0)::float8 AS default_sl,
              coalesce(ar.trail_enabled, false) AS trail_enabled, coalesce(ar.trail_mode, 'POINTS') AS trail_mode,
              coalesce(ar.trail_tsl, 0)::float8 AS trail_tsl, coalesce(ar.enable_target, false) AS enable_target,
              coalesce(ar.tgt, 0)::float8 AS tgt, coalesce(ar.default_tgt, 0)::float8 AS default_tgt, coalesce(ar.trail_ttg, 0)::float8 AS trail_ttg,
              to_char(ar.levels_day, 'YYYY-MM-DD') AS levels_day
         FROM user_brokers ub LEFT JOIN account_risk ar ON ar.user_broker_id = ub.user_broker_id
        WHERE ub.user_broker_id = ANY($1::uuid[]) ORDER BY ub.user_broker_id FOR UPDATE OF ub`, [ids, request.actorId]);
    const byId = new Map(rows.map((row) => [row.user_broker_id, row]));
    const issues: RiskIssue[] = [];
    const next: Array<{ row: AccountRow; risk: AccountRisk }> = [];
    ids.forEach((id, index) => {
      const row = byId.get(id);
      const field = `user_broker_ids[${index}]`;
      if (row === undefined || (request.role === 'manager' && !row.managed)) {
        // An account of someone else's user answers as a missing one does.
        issues.push({ field, code: 'not-found', message: `${field}: no broker account ${id} of a user you manage` });
        return;
      }
      const applied = applyRiskChanges(row, request.changes, { today, label: `${row.broker} ${row.client_id}` });
      if (applied.ok) next.push({ row, risk: applied.value });
      else issues.push(...applied.error);
    });
    if (issues.length > 0) return err(issues);
    for (const { row, risk } of next) {
      await client.query(
        `INSERT INTO account_risk (user_broker_id, ${COLUMNS}, levels_day, updated_by, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, clock_timestamp())
         ON CONFLICT (user_broker_id) DO UPDATE SET enable_sl = EXCLUDED.enable_sl, sl = EXCLUDED.sl, default_sl = EXCLUDED.default_sl,
           trail_enabled = EXCLUDED.trail_enabled, trail_mode = EXCLUDED.trail_mode, trail_tsl = EXCLUDED.trail_tsl,
           enable_target = EXCLUDED.enable_target, tgt = EXCLUDED.tgt, default_tgt = EXCLUDED.default_tgt, trail_ttg = EXCLUDED.trail_ttg,
           levels_day = EXCLUDED.levels_day, updated_by = EXCLUDED.updated_by`,
        [row.user_broker_id, risk.enable_sl, risk.sl, risk.default_sl, risk.trail_enabled, risk.trail_mode, risk.trail_tsl,
          risk.enable_target, risk.tgt, risk.default_tgt, risk.trail_ttg, risk.levels_day, request.actorId]);
      const before: Record<string, unknown> = row.stored ? Object.fromEntries([...LEVEL_FIELDS, ...SWITCH_FIELDS, 'trail_mode', 'levels_day'].map((key) => [key, row[key as keyof AccountRisk]])) : {};
      await client.query(
        `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after) VALUES ($1, 'account_risk.updated', 'account_risk', $2, $3, $4)`,
        [request.actorId, row.user_broker_id, row.stored ? JSON.stringify(before) : null, JSON.stringify({ ...risk, user_id: row.user_id })]);
    }
    return ok({ userBrokerIds: next.map((item) => item.row.user_broker_id) });
  });
  return outcome;
}

/**
 * True when the account was halted today (IST): deploys on it are refused until tomorrow.
 * @example await haltedToday(client, userBrokerId, Date.now()) // 'Account stop-loss of ₹5,000.00 hit on ZX1234 ...' or undefined
 */
export async function haltedToday(db: pg.Pool | pg.PoolClient, userBrokerId: string, nowMs: number): Promise<string | undefined> {
  const { rows } = await db.query<{ halt_message: string }>(
    `SELECT halt_message FROM account_risk_days WHERE user_broker_id = $1 AND halted_at IS NOT NULL
        AND (halted_at AT TIME ZONE 'Asia/Kolkata')::date = $2::date ORDER BY halted_at DESC LIMIT 1`, [userBrokerId, istDate(nowMs)]);
  return rows[0]?.halt_message;
}

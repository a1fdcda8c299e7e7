/**
 * Rule builders: the per-role permission entries of every table are generated from a few rules
 * (own rows, managed rows, staff, shared rows, reference data) so the tables stay readable and
 * every table applies the same rule the same way.
 */
import type {
  ColumnPresets, ColumnSelection, DeletePermission, InsertPermission, PermissionFilter, RolePermissions,
  SelectPermission, UpdatePermission,
} from './types';
import {
  ANONYMOUS_ROLE, PROTECTED_TIERS, SIGNED_IN_ROLES, STAFF_ROLES, readScope, roleIn, type ReadScope,
} from './roles';

/** The acting user: the signed-in user, or the managed user a manager acts for. */
export const USER_ID = 'X-Hasura-User-Id';
/** The signed-in user, always (manager links, `created_by`). */
export const ACTOR_ID = 'X-Hasura-Actor-Id';
/** The tier's earliest date for 1-minute candles (`YYYY-MM-DD`), from the token's `x-hasura-W1m` claim. */
export const MINUTE_CANDLES_FROM = 'X-Hasura-W1m';

export type PermissionsByRole = Readonly<Partial<Record<string, RolePermissions>>>;

/**
 * How a row reaches the user who owns it: through zero or more object relationships to a row
 * with a `user_id` column and a `user` object relationship (or to a `users` row itself).
 */
export interface Owner {
  readonly through: readonly string[];
  /** The row at the end of `through` is a `users` row (its `managers` relationship is local). */
  readonly isUsersRow?: boolean;
}

export const OWNS_DIRECTLY: Owner = { through: [] };

/** `{a: {b: leaf}}` for the path `['a', 'b']`. */
export function nest(path: readonly string[], leaf: PermissionFilter): PermissionFilter {
  return path.reduceRight<PermissionFilter>((inner, step) => ({ [step]: inner }), leaf);
}

/** AND of the non-empty filters (`{}` when none is left). */
export function and(...filters: readonly (PermissionFilter | undefined)[]): PermissionFilter {
  const parts = filters
    .filter((filter): filter is PermissionFilter => filter !== undefined && Object.keys(filter).length > 0)
    .flatMap((filter) => flattened(filter, '_and'));
  if (parts.length === 0) return {};
  return parts.length === 1 ? (parts[0] as PermissionFilter) : { _and: parts };
}

/** The items of a filter that is only `{[connective]: [...]}`, else the filter itself (keeps the JSON flat). */
function flattened(filter: PermissionFilter, connective: '_and' | '_or'): PermissionFilter[] {
  const keys = Object.keys(filter);
  const items = filter[connective];
  return keys.length === 1 && Array.isArray(items) ? (items as PermissionFilter[]) : [filter];
}

/** OR of the filters; `{}` (every row) absorbs the rest. */
export function or(...filters: readonly PermissionFilter[]): PermissionFilter {
  if (filters.some((filter) => Object.keys(filter).length === 0)) return {};
  const parts = filters.flatMap((filter) => flattened(filter, '_or'));
  return parts.length === 1 ? (parts[0] as PermissionFilter) : { _or: parts };
}

/** Rows of the acting user. */
export function ownRows(owner: Owner): PermissionFilter {
  return nest(owner.through, { user_id: { _eq: USER_ID } });
}

/** Rows of the users the `managers` table links to the signed-in user as their manager. */
export function managedRows(owner: Owner): PermissionFilter {
  const link = { managers: { manager_id: { _eq: ACTOR_ID } } };
  return nest(owner.through, owner.isUsersRow ? link : { user: link });
}

/** Rows owned by a user whose tier an administrator may not touch (administrators, superadmins). */
export function ownerNotProtected(owner: Owner): PermissionFilter {
  const tier = { tier: { _nin: [...PROTECTED_TIERS] } };
  return nest(owner.through, owner.isUsersRow ? tier : { user: tier });
}

/** The select filter of a read scope. */
export function rowsInScope(owner: Owner, scope: ReadScope): PermissionFilter {
  if (scope === 'all') return {};
  return scope === 'managed' ? or(ownRows(owner), managedRows(owner)) : ownRows(owner);
}

interface OwnWrite {
  readonly roles: readonly string[];
  readonly columns: ColumnSelection;
  /** Extra condition every written row must meet, per role (e.g. PAPER only for demo). */
  readonly check?: (role: string) => PermissionFilter | undefined;
}

export interface OwnedTableRules {
  readonly owner: Owner;
  readonly select?: {
    /** Default: every signed-in role. */
    readonly roles?: readonly string[];
    readonly columns?: ColumnSelection;
    readonly limit?: number;
    readonly allowAggregations?: boolean;
  };
  /** Rows beyond their own that some roles read (published rows, built-in rows). */
  readonly shared?: { readonly roles: readonly string[]; readonly filter: PermissionFilter };
  readonly insert?: OwnWrite & { readonly presets?: ColumnPresets };
  readonly update?: OwnWrite & { readonly filter?: PermissionFilter };
  readonly delete?: { readonly roles: readonly string[]; readonly filter?: PermissionFilter };
}

/**
 * Permissions of a user-owned table: every role reads its scope (own, managed, all) plus the
 * shared rows; writes always go to the acting user's own rows (`X-Hasura-User-Id`), which is how
 * a manager acts for a managed user.
 */
export function ownedTable(rules: OwnedTableRules): PermissionsByRole {
  const result: Record<string, RolePermissions> = {};
  for (const role of rules.select?.roles ?? SIGNED_IN_ROLES) {
    result[role] = { select: ownedSelect(rules, role) };
  }
  const own = ownRows(rules.owner);
  const directPreset: ColumnPresets = rules.owner.through.length === 0 ? { user_id: USER_ID } : {};
  for (const role of rules.insert?.roles ?? []) {
    const insert = rules.insert;
    if (!insert) break;
    const permission: InsertPermission = {
      check: and(own, insert.check?.(role)),
      columns: insert.columns,
      presets: { ...directPreset, ...insert.presets },
    };
    result[role] = { ...result[role], insert: permission };
  }
  for (const role of rules.update?.roles ?? []) {
    const update = rules.update;
    if (!update) break;
    const permission: UpdatePermission = {
      filter: and(own, update.filter),
      check: and(own, update.check?.(role)),
      columns: update.columns,
    };
    result[role] = { ...result[role], update: permission };
  }
  for (const role of rules.delete?.roles ?? []) {
    const permission: DeletePermission = { filter: and(own, rules.delete?.filter) };
    result[role] = { ...result[role], delete: permission };
  }
  return result;
}

function ownedSelect(rules: OwnedTableRules, role: string): SelectPermission {
  const scoped = rowsInScope(rules.owner, readScope(role));
  const shared = rules.shared && roleIn(role, rules.shared.roles) ? rules.shared.filter : undefined;
  return {
    filter: shared ? or(scoped, shared) : scoped,
    columns: rules.select?.columns ?? 'all',
    ...(rules.select?.limit === undefined ? {} : { limit: rules.select.limit }),
    allowAggregations: rules.select?.allowAggregations ?? true,
  };
}

export interface StaffWriteRules {
  readonly insert?: { readonly columns: ColumnSelection; readonly check?: PermissionFilter };
  readonly update?: { readonly columns: ColumnSelection; readonly filter?: PermissionFilter; readonly check?: PermissionFilter };
  readonly delete?: { readonly filter?: PermissionFilter };
  /** Rows an administrator (not a superadmin) is limited to, e.g. users who are not staff. */
  readonly administratorLimit?: PermissionFilter;
}

/** Writes only staff make (credit grants, manager links, permissions); superadmin is never limited. */
export function staffWrites(rules: StaffWriteRules): PermissionsByRole {
  const result: Record<string, RolePermissions> = {};
  for (const role of STAFF_ROLES) {
    const limit = role === 'administrator' ? rules.administratorLimit : undefined;
    result[role] = {
      ...(rules.insert ? { insert: { check: and(rules.insert.check, limit), columns: rules.insert.columns } } : {}),
      ...(rules.update
        ? {
          update: {
            filter: and(rules.update.filter, limit),
            check: and(rules.update.check, limit),
            columns: rules.update.columns,
          },
        }
        : {}),
      ...(rules.delete ? { delete: { filter: and(rules.delete.filter, limit) } } : {}),
    };
  }
  return result;
}

export interface ReferenceRules {
  /** Anonymous requests read it too (public reference data). */
  readonly anonymous: boolean;
  readonly filter?: PermissionFilter;
  readonly limit?: number;
  readonly allowAggregations?: boolean;
}

/** Read-only reference data: every signed-in role (and anonymous when public) reads every row. */
export function referenceTable(rules: ReferenceRules): PermissionsByRole {
  const roles = rules.anonymous ? [...SIGNED_IN_ROLES, ANONYMOUS_ROLE] : SIGNED_IN_ROLES;
  const select: SelectPermission = {
    filter: rules.filter ?? {},
    columns: 'all',
    ...(rules.limit === undefined ? {} : { limit: rules.limit }),
    allowAggregations: rules.allowAggregations ?? true,
  };
  return Object.fromEntries(roles.map((role) => [role, { select }]));
}

/**
 * Combines per-role permissions from several rules; the same operation given twice for one role
 * is a mistake in the declarations and throws naming the role and operation.
 */
export function mergePermissions(...parts: readonly PermissionsByRole[]): PermissionsByRole {
  const result: Record<string, RolePermissions> = {};
  for (const part of parts) {
    for (const [role, permissions] of Object.entries(part)) {
      if (!permissions) continue;
      const existing = result[role] ?? {};
      for (const operation of Object.keys(permissions)) {
        if (operation in existing) throw new Error(`permissions: role "${role}" gets "${operation}" twice`);
      }
      result[role] = { ...existing, ...permissions };
    }
  }
  return result;
}

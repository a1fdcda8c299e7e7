/**
 * The GraphQL roles and the groups the permission rules are written against.
 *
 * A request's role is the token's tier (its default role) unless `x-hasura-role` picks another
 * of its allowed roles: every signed-in user also has `user` and `me` (docs/DATA-MODEL.md,
 * auth.user_roles). Because any user can switch to `user` or `me`, those two may never do more
 * than the weakest tier; otherwise a trial user could step around the tier by asking for them.
 */

/** The nine product tiers of docs/PRODUCT.md section 6. */
export const TIER_ROLES = [
  'trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support',
] as const;

export type TierRole = (typeof TIER_ROLES)[number];

/** hasura-auth's base role: own rows, reference data and the marketplace; writes of the weakest tier. */
export const USER_ROLE = 'user';
/** The narrowest signed-in role: own rows and reference data, writes only to the own profile and preferences. */
export const ME_ROLE = 'me';
/** A request without a token. */
export const ANONYMOUS_ROLE = 'anonymous';

export const MANAGER_ROLE = 'manager';
export const SUPPORT_ROLE = 'support';
export const ADMINISTRATOR_ROLE = 'administrator';
export const SUPERADMIN_ROLE = 'superadmin';

/** Every role the metadata knows, in the order the permission matrix lists them. */
export const ALL_ROLES = [...TIER_ROLES, USER_ROLE, ME_ROLE, ANONYMOUS_ROLE] as const;

export type GraphqlRole = (typeof ALL_ROLES)[number];

/** Roles a signed-in user can hold. */
export const SIGNED_IN_ROLES: readonly GraphqlRole[] = [...TIER_ROLES, USER_ROLE, ME_ROLE];

/** Staff: read every row of every exposed table. */
export const STAFF_ROLES: readonly GraphqlRole[] = [ADMINISTRATOR_ROLE, SUPERADMIN_ROLE];

/**
 * Roles whose menu shows Algo, Backtest and Strategies (docs/PRODUCT.md section 6): they may write their
 * own algorithms, versions, indicator groups and strategies.
 */
export const BUILDER_ROLES: readonly GraphqlRole[] = [
  'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin',
];

/** docs/PRODUCT.md section 4: the dashboard of demo and backtest is locked to PAPER, so their strategies are paper only. */
export const PAPER_ONLY_ROLES: readonly GraphqlRole[] = ['demo', 'backtest'];

/**
 * Roles that see the marketplace (published algorithms and strategies): the Subscriptions menu
 * of docs/PRODUCT.md section 6 plus `user`. Support and `me` do not.
 */
export const MARKETPLACE_ROLES: readonly GraphqlRole[] = [
  'trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', USER_ROLE,
];

/**
 * Roles that write their own everyday rows (preferences, broker accounts, subscriptions, signal
 * confirmations): every signed-in role except `me`.
 */
export const OWN_ROW_WRITER_ROLES: readonly GraphqlRole[] = [...TIER_ROLES, USER_ROLE];

/** Tiers an administrator may neither grant nor edit: the staff tiers. */
export const PROTECTED_TIERS: readonly TierRole[] = [ADMINISTRATOR_ROLE, SUPERADMIN_ROLE];

/** Whose rows a role reads in a user-owned table. */
export type ReadScope = 'own' | 'managed' | 'all';

/**
 * The read scope of a role: staff read every row, a manager their own rows and the rows of the
 * users the `managers` table links to them, everyone else their own rows.
 * @example readScope('manager') -> 'managed'
 */
export function readScope(role: string): ReadScope {
  if ((STAFF_ROLES as readonly string[]).includes(role)) return 'all';
  return role === MANAGER_ROLE ? 'managed' : 'own';
}

/** True when `role` is in `group` (the groups above are typed as role lists). */
export function roleIn(role: string, group: readonly string[]): boolean {
  return group.includes(role);
}

// The GraphQL documents of /users/list and another user's /users/edit (the server's user
// administration actions, packages/server/src/graphql/actions/user-admin-actions.ts) and the
// shapes they answer. Support gets the same shapes with names and client ids masked by the server
// and no e-mail or audit before/after: the browser never receives the clear values.

export const USER_ROW_FIELDS = 'user_id name masked email tier permissions disabled active_brokers last_sign_in_at created_at';

export const ADMIN_USERS_QUERY = `query AdminUsers($filter: admin_users_filter, $limit: Int!, $offset: Int!) {
  admin_users(filter: $filter, limit: $limit, offset: $offset) { total rows { ${USER_ROW_FIELDS} } }
}`;

export const ADMIN_USER_QUERY = `query AdminUser($userId: uuid!) {
  admin_user(user_id: $userId) {
    user { ${USER_ROW_FIELDS} }
    security { password_set mfa security_keys personal_access_tokens { id created_at expires_at live } }
    brokers { user_broker_id broker client_id active investment_paise has_secret }
    grants { id category credits utilized expiry created_at live }
    licences { licence_type total_credits utilized_credits expire_on activated_on }
    audit { at actor_name action before after }
  }
}`;

export const SET_USER_ACCESS_MUTATION = `mutation AdminSetUserAccess($userId: uuid!, $tier: String, $permissions: [String!], $disabled: Boolean) {
  admin_set_user_access(user_id: $userId, tier: $tier, permissions: $permissions, disabled: $disabled) { ${USER_ROW_FIELDS} }
}`;

export const GRANT_CREDIT_MUTATION = `mutation AdminGrantCredit($userId: uuid!, $category: String!, $credits: Int!, $expiry: date!) {
  admin_grant_credit(user_id: $userId, category: $category, credits: $credits, expiry: $expiry) { id category credits utilized expiry created_at live }
}`;

export const EXTEND_GRANT_MUTATION = `mutation AdminExtendGrant($grantId: uuid!, $category: String!, $addCredits: Int, $expiry: date) {
  admin_extend_grant(grant_id: $grantId, category: $category, add_credits: $addCredits, expiry: $expiry) { id category credits utilized expiry created_at live }
}`;

/** The signed-in user's own licence figures (the `licences` view, docs/PRODUCT.md section 3), live. */
export const OWN_LICENCES_SUBSCRIPTION = `subscription OwnLicences($userId: uuid!) {
  licences(where: { user_id: { _eq: $userId } }, order_by: { licence_type: asc }) {
    licence_type total_credits utilized_credits expire_on activated_on
  }
}`;

export const TIERS = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support'] as const;
/** Tiers an administrator may neither change nor grant (the server's PROTECTED_TIERS). */
export const STAFF_TIERS: readonly string[] = ['administrator', 'superadmin'];
export const PERMISSIONS = ['strategy:backtest', 'strategy:deploy', 'strategy:manual'] as const;
export const GRANT_CATEGORIES = ['BACKTEST', 'STRATEGIES'] as const;
export type GrantCategory = (typeof GRANT_CATEGORIES)[number];

export interface AdminUserRow {
  readonly user_id: string;
  readonly name: string;
  readonly masked: boolean;
  readonly email: string | null;
  readonly tier: string;
  readonly permissions: readonly string[];
  readonly disabled: boolean;
  readonly active_brokers: number;
  readonly last_sign_in_at: string | null;
  readonly created_at: string;
}

export interface AdminUsersData {
  readonly admin_users: { readonly total: number; readonly rows: readonly AdminUserRow[] };
}

export interface LicenceRow {
  readonly licence_type: string;
  readonly total_credits: number;
  readonly utilized_credits: number;
  readonly expire_on: string | null;
  readonly activated_on: string | null;
}

export interface GrantRow {
  readonly id: string;
  readonly category: GrantCategory;
  readonly credits: number;
  readonly utilized: number | null;
  readonly expiry: string;
  readonly created_at: string;
  readonly live: boolean;
}

export interface AdminUserDetail {
  readonly user: AdminUserRow;
  readonly security: {
    readonly password_set: boolean;
    readonly mfa: string | null;
    readonly security_keys: readonly string[];
    readonly personal_access_tokens: ReadonlyArray<{ readonly id: string; readonly created_at: string; readonly expires_at: string; readonly live: boolean }>;
  };
  readonly brokers: ReadonlyArray<{
    readonly user_broker_id: string; readonly broker: string; readonly client_id: string; readonly active: boolean;
    readonly investment_paise: number; readonly has_secret: boolean;
  }>;
  readonly grants: readonly GrantRow[];
  readonly licences: readonly LicenceRow[];
  readonly audit: ReadonlyArray<{ readonly at: string; readonly actor_name: string | null; readonly action: string; readonly before: unknown; readonly after: unknown }>;
}

/** Whether the signed-in role may change this user (the server refuses the same cases). */
export function canChangeUser(input: { readonly role: string | undefined; readonly selfId: string | undefined; readonly user: Pick<AdminUserRow, 'user_id' | 'tier'> }): boolean {
  if (input.user.user_id === input.selfId) return false;
  if (input.role === 'superadmin') return true;
  return input.role === 'administrator' && !STAFF_TIERS.includes(input.user.tier);
}

/** The tiers the signed-in role may give. */
export function assignableTiers(role: string | undefined): readonly string[] {
  return role === 'superadmin' ? TIERS : TIERS.filter((tier) => !STAFF_TIERS.includes(tier));
}

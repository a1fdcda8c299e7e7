/**
 * Accounts: profiles, permissions, manager links, preferences, brokers and broker accounts.
 */
import type { PermissionFilter, TableDeclaration } from './types';
import {
  ACTOR_ID, OWNS_DIRECTLY, USER_ID, and, mergePermissions, or, ownRows, ownedTable, ownerNotProtected,
  referenceTable, staffWrites, type Owner,
} from './permissions-rules';
import {
  ADMINISTRATOR_ROLE, MANAGER_ROLE, OWN_ROW_WRITER_ROLES, PROTECTED_TIERS, SIGNED_IN_ROLES, STAFF_ROLES,
  SUPERADMIN_ROLE, SUPPORT_ROLE,
} from './roles';

const USERS_ROW: Owner = { through: [], isUsersRow: true };
const BY_USER_ID = { user_id: 'user_id' } as const;
const USER_RELATIONSHIP = { user: { table: 'users', columns: BY_USER_ID } } as const;

/** The broker secret columns: set only by a server action (encryption), never selectable or settable through GraphQL. */
export const BROKER_SECRET_COLUMNS = ['api_secret_ciphertext', 'api_secret_nonce', 'api_secret_key_id'] as const;

const NOT_PROTECTED_TIER: PermissionFilter = { tier: { _nin: [...PROTECTED_TIERS] } };

const users: TableDeclaration = {
  name: 'users',
  description: 'The app profile of docs/PRODUCT.md section 3 (one per account).',
  objectRelationships: {},
  arrayRelationships: {
    user_brokers: { table: 'user_brokers', columns: BY_USER_ID },
    user_permissions: { table: 'user_permissions', columns: BY_USER_ID },
    user_app_configs: { table: 'user_app_configs', columns: BY_USER_ID },
    /** The links naming this user as the managed one ("who manages me"). */
    managers: { table: 'managers', columns: BY_USER_ID },
    /** The links naming this user as the manager. */
    managed_users: { table: 'managers', columns: { user_id: 'manager_id' } },
    user_credits: { table: 'user_credits', columns: BY_USER_ID },
    deployed_strategies: { table: 'deployed_strategies', columns: BY_USER_ID },
    licences: { table: 'licences', columns: BY_USER_ID },
    algorithms: { table: 'algorithms', columns: BY_USER_ID },
    strategies: { table: 'strategies', columns: BY_USER_ID },
    subscriptions: { table: 'subscriptions', columns: BY_USER_ID },
  },
  permissions: mergePermissions(
    ownedTable({
      owner: USERS_ROW,
      select: { roles: SIGNED_IN_ROLES.filter((role) => role !== SUPPORT_ROLE) },
      // Everyone renames themselves; staff get their own update rule below.
      update: { roles: SIGNED_IN_ROLES.filter((role) => !STAFF_ROLES.includes(role)), columns: ['name'] },
    }),
    {
      // Support sees every profile, names masked except its own; never the api_key.
      [SUPPORT_ROLE]: {
        select: {
          filter: {},
          columns: ['user_id', 'name', 'tier', 'created_at', 'updated_at'],
          masked: { name: { mask: 'name', unlessRow: ownRows(USERS_ROW) } },
          allowAggregations: true,
        },
      },
      [SUPERADMIN_ROLE]: { update: { filter: {}, check: {}, columns: ['name', 'tier'] } },
      // An administrator renames anyone who is not staff and moves them between the non-staff
      // tiers; its own row stays administrator (it cannot promote itself).
      [ADMINISTRATOR_ROLE]: {
        update: {
          filter: or(ownRows(USERS_ROW), NOT_PROTECTED_TIER),
          check: or(and(ownRows(USERS_ROW), { tier: { _eq: ADMINISTRATOR_ROLE } }), NOT_PROTECTED_TIER),
          columns: ['name', 'tier'],
        },
      },
    },
  ),
};

const userPermissions: TableDeclaration = {
  name: 'user_permissions',
  description: 'Permissions of docs/PRODUCT.md section 6 per user (the x-hasura-permissions claim).',
  objectRelationships: USER_RELATIONSHIP,
  permissions: mergePermissions(
    ownedTable({ owner: OWNS_DIRECTLY }),
    staffWrites({
      insert: { columns: ['user_id', 'permission'] },
      delete: {},
      administratorLimit: ownerNotProtected(OWNS_DIRECTLY),
    }),
  ),
};

/** Links where the signed-in user is the manager, or where the acting user is the managed one. */
const MANAGER_LINKS: PermissionFilter = or({ manager_id: { _eq: ACTOR_ID } }, { user_id: { _eq: USER_ID } });

const managers: TableDeclaration = {
  name: 'managers',
  description: 'Manager -> managed user links (docs/PRODUCT.md sections 6 and 7).',
  objectRelationships: {
    /** The managed user. */
    user: { table: 'users', columns: BY_USER_ID },
    manager: { table: 'users', columns: { manager_id: 'user_id' } },
  },
  permissions: mergePermissions(
    Object.fromEntries(SIGNED_IN_ROLES.map((role) => [
      role,
      { select: { filter: STAFF_ROLES.includes(role) ? {} : MANAGER_LINKS, columns: 'all', allowAggregations: true } },
    ])),
    staffWrites({
      // A link makes the managed user's rows visible to the manager: only to a manager-tier user.
      insert: { columns: ['manager_id', 'user_id'], check: { manager: { tier: { _eq: MANAGER_ROLE } } } },
      delete: {},
      administratorLimit: ownerNotProtected(OWNS_DIRECTLY),
    }),
  ),
};

const userAppConfigs: TableDeclaration = {
  name: 'user_app_configs',
  description: 'Preferences keyed by (category, subcategory, user_id) (docs/PRODUCT.md sections 3 and 7).',
  objectRelationships: USER_RELATIONSHIP,
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    insert: { roles: SIGNED_IN_ROLES, columns: ['category', 'subcategory', 'meta_data'] },
    update: { roles: SIGNED_IN_ROLES, columns: ['meta_data'] },
    delete: { roles: SIGNED_IN_ROLES },
  }),
};

const brokers: TableDeclaration = {
  name: 'brokers',
  description: 'Supported brokers.',
  permissions: referenceTable({ anonymous: true }),
};

const userBrokers: TableDeclaration = {
  name: 'user_brokers',
  description: "A user's broker account; the API secret is write-only through a server action.",
  hiddenColumns: BROKER_SECRET_COLUMNS,
  objectRelationships: {
    ...USER_RELATIONSHIP,
    broker_info: { table: 'brokers', columns: { broker: 'broker' } },
  },
  permissions: ownedTable({
    owner: OWNS_DIRECTLY,
    insert: {
      roles: OWN_ROW_WRITER_ROLES,
      columns: ['broker', 'client_id', 'api_key', 'active', 'investment_amt_paise', 'investment_history'],
    },
    update: { roles: OWN_ROW_WRITER_ROLES, columns: ['active', 'investment_amt_paise', 'investment_history'] },
    delete: { roles: OWN_ROW_WRITER_ROLES },
  }),
};

/** The accounts tables in declaration order. */
export const ACCOUNT_TABLES: readonly TableDeclaration[] = [
  users, userPermissions, managers, userAppConfigs, brokers, userBrokers,
];

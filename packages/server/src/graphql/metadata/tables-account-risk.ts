/**
 * Account-level risk (migration 0026, /userAccounts): each broker account's stop-loss, target and
 * trailing settings, and its days as the runtime's account watch saw them
 * (packages/server/src/trading/account-risk.ts).
 *
 * Who reads: the account's owner, a manager linked to the owner, a superadmin (every account); an
 * administrator and support only their own accounts; anonymous nothing. Nobody writes through the
 * tables: settings change only through the set_account_risk action (a manager of the user or
 * a superadmin, validated); the days are written by the runtime.
 */
import type { TableDeclaration } from './types';
import { mergePermissions, ownedTable, ownRows, type Owner } from './permissions-rules';
import { ADMINISTRATOR_ROLE, SIGNED_IN_ROLES } from './roles';

const BY_ACCOUNT = { user_broker_id: 'user_broker_id' } as const;
const ACCOUNT = { table: 'user_brokers', columns: BY_ACCOUNT } as const;
const ACCOUNT_OWNER: Owner = { through: ['user_broker'] };

/** Own rows for everyone (administrators too); managed rows for managers; all for superadmins. */
const readers = mergePermissions(
  ownedTable({ owner: ACCOUNT_OWNER, select: { roles: SIGNED_IN_ROLES.filter((role) => role !== ADMINISTRATOR_ROLE) } }),
  { [ADMINISTRATOR_ROLE]: { select: { filter: ownRows(ACCOUNT_OWNER), columns: 'all', allowAggregations: true } } },
);

const accountRisk: TableDeclaration = {
  name: 'account_risk',
  description: "A broker account's stop-loss, target and trailing levels (docs/PRODUCT.md section 3's user-accounts columns); "
    + 'levels are hundredths of trail_mode\'s unit (POINTS: paise, PERCENT: basis points of the investment); '
    + 'changed only through set_account_risk.',
  objectRelationships: { user_broker: ACCOUNT },
  permissions: readers,
};

const accountRiskDays: TableDeclaration = {
  name: 'account_risk_days',
  description: "A broker account's trading day as the runtime saw it: day P&L after charges and its peak, open positions, "
    + 'investment, broker session state, and the halt when a stop or target was hit. Written by the server.',
  objectRelationships: { user_broker: ACCOUNT },
  permissions: readers,
};

/** The account-risk tables in declaration order. */
export const ACCOUNT_RISK_TABLES: readonly TableDeclaration[] = [accountRisk, accountRiskDays];

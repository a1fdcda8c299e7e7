/**
 * Vyuha's GraphQL metadata: every exposed table with its relationships and role permissions
 * (docs/GRAPHQL-PERMISSIONS.md), plus the actions given by their owners.
 *
 * Not exposed: the `auth` schema (hasura-auth's own tables: password and token hashes, MFA
 * secrets; served by the auth API), `audit_log` (the SEBI trail of who did what: a user reading
 * it would see staff actions and IP addresses; it is read with SQL for investigations),
 * `app_meta` (installation facts), `broker_sessions` (the day's broker access tokens, encrypted;
 * only the server uses them), `broker_instruments` and `broker_instrument_dumps` (a broker's daily
 * instruments dump: the adapters' token and symbol lookup), `manager_link_requests` (a manager's
 * pending link requests: whether an address has an account must not show; read through actions), `vyuha_migrations`, and the `ltps` table of recorded prices (GraphQL's
 * `ltps` is the view instrument_last_prices over it and the candles: tables-market.ts).
 */
import type { ActionDeclaration, Metadata, TableDeclaration } from './types';
import { ACCOUNT_TABLES } from './tables-accounts';
import { MARKET_TABLES } from './tables-market';
import { TRADING_TABLES } from './tables-trading';
import { CREDIT_TABLES } from './tables-credits';
import { ACCOUNT_RISK_TABLES } from './tables-account-risk';
import { ACTING_AUDIT_TABLES } from './tables-acting-audit';
import { SWEEP_TABLES } from './tables-sweeps';

/** Every exposed table: accounts, market reference data, trading, credits, account risk, acting audit, sweeps. */
export const VYUHA_METADATA_TABLES: readonly TableDeclaration[] = [
  ...ACCOUNT_TABLES, ...MARKET_TABLES, ...TRADING_TABLES, ...CREDIT_TABLES, ...ACCOUNT_RISK_TABLES, ...ACTING_AUDIT_TABLES, ...SWEEP_TABLES,
];

/** The root field names Hasura derives from a table's name. */
export function tableRootFields(table: string): string[] {
  return [
    table, `${table}_by_pk`, `${table}_aggregate`, `insert_${table}`, `insert_${table}_one`, `update_${table}`,
    `update_${table}_by_pk`, `update_${table}_many`, `delete_${table}`, `delete_${table}_by_pk`,
  ];
}

/**
 * The whole metadata: the tables and the given actions. An action whose name is also a table's
 * root field (e.g. an action `candles` beside the `candles` table) or another action's name throws
 * naming both, so the schema never has two meanings for one field.
 */
export function vyuhaMetadata(actions: readonly ActionDeclaration[]): Metadata {
  const owners = new Map<string, string>();
  for (const table of VYUHA_METADATA_TABLES) {
    for (const field of tableRootFields(table.name)) owners.set(field, `table ${table.name}`);
  }
  for (const action of actions) {
    const owner = owners.get(action.name);
    if (owner) throw new Error(`GraphQL metadata: action "${action.name}" has the name of a root field of ${owner}`);
    owners.set(action.name, `action ${action.name}`);
  }
  return { tables: VYUHA_METADATA_TABLES, actions };
}

export { permissionMatrixMarkdown, replaceGeneratedSection, GENERATED_BEGIN, GENERATED_END } from './permissions-matrix';
export {
  ALL_ROLES, TIER_ROLES, SIGNED_IN_ROLES, STAFF_ROLES, BUILDER_ROLES, MARKETPLACE_ROLES, OWN_ROW_WRITER_ROLES,
  PAPER_ONLY_ROLES, PROTECTED_TIERS, USER_ROLE, ME_ROLE, ANONYMOUS_ROLE, readScope,
} from './roles';
export type { GraphqlRole, TierRole, ReadScope } from './roles';
export { USER_ID, ACTOR_ID, MINUTE_CANDLES_FROM } from './permissions-rules';
export { BROKER_SECRET_COLUMNS } from './tables-accounts';
export { CANDLE_ROW_LIMIT } from './tables-market';
export { ORDER_ROW_LIMIT } from './tables-trading';

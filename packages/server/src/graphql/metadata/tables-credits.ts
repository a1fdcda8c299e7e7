/**
 * Credits and licences (docs/PRODUCT.md sections 3 and 7): users read their own (with aggregates, for the
 * credit alerts); only staff grant or change them.
 */
import type { TableDeclaration } from './types';
import { OWNS_DIRECTLY, mergePermissions, ownedTable, staffWrites } from './permissions-rules';

const USER = { table: 'users', columns: { user_id: 'user_id' } } as const;

const userCredits: TableDeclaration = {
  name: 'user_credits',
  description: 'Credit grants: BACKTEST/CANDLES and STRATEGIES/DEPLOYED.',
  objectRelationships: { user: USER },
  permissions: mergePermissions(
    ownedTable({ owner: OWNS_DIRECTLY }),
    staffWrites({
      insert: { columns: ['user_id', 'credits', 'expiry', 'category', 'subcategory'] },
      update: { columns: ['credits', 'expiry'] },
      delete: {},
    }),
  ),
};

const deployedStrategies: TableDeclaration = {
  name: 'deployed_strategies',
  description: 'Strategy licence counters (available, utilized).',
  objectRelationships: { user: USER },
  permissions: mergePermissions(
    ownedTable({ owner: OWNS_DIRECTLY }),
    staffWrites({
      insert: { columns: ['user_id', 'available', 'utilized', 'expiry'] },
      update: { columns: ['available', 'utilized', 'expiry'] },
      delete: {},
    }),
  ),
};

const licences: TableDeclaration = {
  name: 'licences',
  description: 'Licence credits per user and type (backtest, strategy), derived from grants and runs.',
  primaryKey: ['user_id', 'licence_type'],
  objectRelationships: { user: USER },
  permissions: ownedTable({ owner: OWNS_DIRECTLY }),
};

/** The credit tables in declaration order. */
export const CREDIT_TABLES: readonly TableDeclaration[] = [userCredits, deployedStrategies, licences];

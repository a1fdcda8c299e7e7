/**
 * Parameter sweeps and walk-forwards (migration 0031): `sweeps` (one per sweep a user started,
 * with its request, status, progress, credits and, once complete, its summary) and
 * `sweep_results` (one row per combination or walk-forward window). Written by the server only
 * (the start_sweep and cancel_sweep actions, the sweep workers): users read their own rows, a
 * manager those of the users it manages, staff every row, as strategy_runs.
 */
import type { TableDeclaration } from './types';
import { OWNS_DIRECTLY, ownedTable } from './permissions-rules';

const BY_SWEEP = { sweep_id: 'sweep_id' } as const;

const sweeps: TableDeclaration = {
  name: 'sweeps',
  description: 'A parameter sweep or walk-forward of a backtest run: request, status (QUEUED, IN PROGRESS, COMPLETE, ERROR, CANCELLED), '
    + 'progress, estimated and used credits (candles), summary; written by the server.',
  objectRelationships: {
    user: { table: 'users', columns: { user_id: 'user_id' } },
    run: { table: 'strategy_runs', columns: { run_id: 'run_id' } },
    algorithm: { table: 'algorithms', columns: { algorithm_id: 'algorithm_id' } },
    instrument: { table: 'instruments', columns: { instrument_id: 'instrument_id' } },
  },
  arrayRelationships: { results: { table: 'sweep_results', columns: BY_SWEEP } },
  permissions: ownedTable({ owner: OWNS_DIRECTLY }),
};

const sweepResults: TableDeclaration = {
  name: 'sweep_results',
  description: 'One row per combination of a sweep (position = its index in grid order) or per walk-forward window: bindings and metrics; written by the server.',
  objectRelationships: { sweep: { table: 'sweeps', columns: BY_SWEEP } },
  permissions: ownedTable({ owner: { through: ['sweep'] } }),
};

/** The sweep tables in declaration order. */
export const SWEEP_TABLES: readonly TableDeclaration[] = [sweeps, sweepResults];

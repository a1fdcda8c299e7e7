import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root folder (this file is packages/server/src/paths.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const migrationsDir = join(repoRoot, 'packages', 'server', 'migrations');
export const webDistDir = join(repoRoot, 'packages', 'web', 'dist');
/** Market reference data shipped with the repo (holidays, special sessions, index levels). */
export const marketDataDir = join(repoRoot, 'data', 'market');

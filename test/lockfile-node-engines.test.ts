// `npm ci` warned EBADENGINE on the Node the README names: two locked packages (cookie 2, under
// light-my-request, and content-disposition 3, under @fastify/static) ask for Node 22. The root
// package.json pins versions that support Node 20 through `overrides`; this test keeps every
// package of the lockfile within the root's `engines.node`, so the warning cannot come back with
// the next dependency update unnoticed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The part of npm's own semver library this test needs (no type package is installed for it). */
interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { readonly version: string } | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

const root = join(import.meta.dirname, '..');

interface LockedPackage {
  readonly version?: string;
  readonly engines?: { readonly node?: string };
}

/**
 * The locked packages whose `engines.node` refuses `nodeVersion`, as `path@version needs range`.
 * @example enginesRefusing({ 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } } }, '20.19.0') // ['node_modules/cookie@2.0.2 needs >=22']
 */
function enginesRefusing(packages: Readonly<Record<string, LockedPackage>>, nodeVersion: string): string[] {
  return Object.entries(packages)
    .filter(([, locked]) => locked.engines?.node !== undefined && !semver.satisfies(nodeVersion, locked.engines.node))
    .map(([path, locked]) => `${path}@${locked.version ?? '?'} needs ${locked.engines?.node ?? ''}`);
}

describe('the lockfile and the Node version the README promises', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const oldestNode = semver.minVersion(manifest.engines.node)?.version ?? '';

  it('reads the oldest supported Node from package.json', () => {
    expect(oldestNode).toBe('20.19.0');
  });

  it('npm ci prints no EBADENGINE: every locked package accepts the oldest supported Node', () => {
    expect(enginesRefusing(lock.packages, oldestNode)).toEqual([]);
  });

  it('would name a package that asks for a newer Node', () => {
    const refused = enginesRefusing({ 'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } }, 'node_modules/ok': { version: '1.0.0', engines: { node: '>=18' } } }, oldestNode);
    expect(refused).toEqual(['node_modules/cookie@2.0.2 needs >=22']);
  });
});

// docs/BUDGETS.md budget: the landing and sign-in routes ship <= 250 kB of JavaScript (gzip). The global
// setup has built the web app; scripts/web-size.mjs measures the build and prints the figures.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertSetupSucceeded } from './browser';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('JavaScript shipped by the first routes', () => {
  it('is within 250 kB gzip for the landing and the sign-in route', () => {
    assertSetupSucceeded();
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'web-size.mjs')], { cwd: repoRoot, encoding: 'utf8' });
    process.stdout.write(run.stdout);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/kB gzip .*budget 250 kB: met\)$/);
    expect(run.status).toBe(0);
  });
});

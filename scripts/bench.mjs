// `npm run bench [NAME]`: runs each bench/*.bench.ts (whose name contains NAME) in its own process
// (so one benchmark's heap and JIT state cannot colour the next) and prints what they print.
// Inside a package it runs that package's benchmarks; at the repository root, every package's.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv[2];
const here = join(process.cwd(), 'bench');
const packagesDir = join(process.cwd(), 'packages');
const benchDirs = existsSync(here)
  ? [here]
  : existsSync(packagesDir)
    ? readdirSync(packagesDir).sort().map((name) => join(packagesDir, name, 'bench')).filter((dir) => existsSync(dir))
    : [];
const files = benchDirs.flatMap((dir) =>
  readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort().map((f) => ({ dir, file: f })),
);
if (files.length === 0) {
  process.stderr.write(`no benchmarks${only ? ` named like "${only}"` : ''} in ${benchDirs.join(', ') || process.cwd()}\n`);
  process.exit(1);
}
let failed = 0;
for (const { dir, file } of files) {
  process.stdout.write(`\n== ${file}\n`);
  // Each benchmark runs from its own package, as it would with `npm run bench` there, with the
  // V8 settings of the platform's processes (packages/server/src/jit-settings.ts).
  const run = spawnSync(process.execPath, ['--no-concurrent-osr', '--import', 'tsx', join(dir, file)], { stdio: 'inherit', cwd: join(dir, '..') });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);

// `npm run bench` inside a package: runs each bench/*.bench.ts of that package in its own process
// (so one benchmark's heap and JIT state cannot colour the next) and prints what they print.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const benchDir = join(process.cwd(), 'bench');
const only = process.argv[2];
const files = existsSync(benchDir) ? readdirSync(benchDir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort() : [];
if (files.length === 0) {
  process.stderr.write(`no benchmarks in ${benchDir}\n`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);

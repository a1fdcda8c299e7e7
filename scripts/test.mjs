// `npm test`: every test (lint and typecheck included, as tests) in one Vitest run, then one plain
// line `N passed, N failed` read from Vitest's JSON report, so that a run with no tests shows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = join(root, '.test-results');
const report = join(reportDir, 'vitest.json');
mkdirSync(reportDir, { recursive: true });
rmSync(report, { force: true });

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests ?? 0;
  failed = results.numFailedTests ?? 0;
  // A file that failed without a failing test (it did not load, or a hook threw) counts once.
  for (const file of results.testResults ?? []) {
    const failedInFile = (file.assertionResults ?? []).filter((test) => test.status === 'failed').length;
    if (file.status === 'failed' && failedInFile === 0) failed += 1;
  }
} else {
  failed = 1; // Vitest died before writing its report: that is a failure, not "no tests".
}
// Vitest failed the run without a failed test (an unhandled error during the run): count it, so
// the line never says "0 failed" for a run that failed.
if (run.status !== 0 && failed === 0) failed = 1;
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(run.status === 0 && failed === 0 ? 0 : run.status || 1);

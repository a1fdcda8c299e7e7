// Type-checks every package with its own tsconfig: the pure packages see no Node or DOM types,
// so a stray `setTimeout` or `process` fails here as well as in the lint.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const projects = ['packages/core', 'packages/market', 'packages/engine', 'packages/server', 'packages/web', 'tests/browser', '.'];
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failures = 0;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, project, 'tsconfig.json'), '--pretty', 'false'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failures += 1;
}
process.exit(failures === 0 ? 0 : 1);

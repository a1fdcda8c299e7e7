// `npm start`: build the web app if its build is missing or older than its sources, then run the
// platform as the child of a crash supervisor (scripts/supervisor.mjs: restarts with backoff,
// forwards Ctrl+C and SIGTERM). A newcomer types `npm ci && npm start` and nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'packages', 'web');
const stamp = join(web, 'dist', 'version.json');
// The web app bundles the pure packages too, so their sources count as its inputs.
const inputs = [join(web, 'src'), join(web, 'public'), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'package.json'),
  ...['core', 'market', 'engine'].map((name) => join(root, 'packages', name, 'src')), join(root, 'package-lock.json')];

function newestModification(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestModification(join(path, entry))), info.mtimeMs);
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (builtAt < Math.max(...inputs.map(newestModification))) {
  process.stdout.write(builtAt ? 'The web app changed since its last build: rebuilding…\n' : 'Building the web app (first start)…\n');
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { supervise, VYUHA_BIN } = await import('./supervisor.mjs');
process.exitCode = await supervise({ command: process.execPath, args: [VYUHA_BIN, 'start', ...process.argv.slice(2)] });

// The JavaScript a route ships (gzip): the entry chunk plus, for each of the route's lazy modules
// (root shell, layout, page), the module and every chunk it imports statically, each counted
// once. Reads packages/web/dist/.vite/manifest.json (vite build --manifest). docs/BUDGETS.md budget:
// landing + sign-in <= 250 kB. Prints one line per route; exits 1 when a route is over budget.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'packages', 'web', 'dist');
const BUDGET_KB = 250;

/** Route -> the source modules react-router loads for it (besides the entry). */
export const ROUTES = {
  'landing (/)': ['src/shell/RootShell.tsx', 'src/shell/LandingLayout.tsx', 'src/pages/public/Landing.tsx'],
  'sign-in (/authenticate/signin)': ['src/shell/RootShell.tsx', 'src/shell/AuthLayout.tsx', 'src/pages/auth/SignIn.tsx'],
};

export function routeSizes() {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('the manifest has no entry chunk');
  const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
  const closure = (key, seen) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) closure(imported, seen);
  };
  return Object.entries(ROUTES).map(([route, modules]) => {
    const seen = new Set();
    closure(entryKey, seen);
    for (const module of modules) closure(module, seen);
    const files = [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
    const kb = files.reduce((sum, file) => sum + gzipKb(file), 0);
    return { route, kb, files: files.length };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let over = false;
  for (const { route, kb, files } of routeSizes()) {
    const within = kb <= BUDGET_KB;
    over ||= !within;
    console.log(`${route.padEnd(34)} ${kb.toFixed(1).padStart(7)} kB gzip in ${files} files  (budget ${BUDGET_KB} kB: ${within ? 'met' : 'NOT met'})`);
  }
  process.exit(over ? 1 : 0);
}

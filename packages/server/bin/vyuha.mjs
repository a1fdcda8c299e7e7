#!/usr/bin/env node
// Entry of `npx vyuha`. The server is TypeScript run from source. Loading ~150 modules through
// tsx's loader thread costs about half a second per process, so the CLI runs from a bundle of the
// same sources that esbuild (tsx's own dependency) writes under packages/server/dist/cli/ and
// that is rebuilt whenever any file it was built from changed (size or modification time):
// nothing to build by hand, and a fresh clone builds it on its first command. Each module keeps
// its own import.meta.url and function names, as under tsx. If the bundle cannot be built, or
// VYUHA_BUNDLE=0, the sources run through tsx as before.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const server = resolve(here, '..');
const root = resolve(server, '..', '..');
const entry = join(server, 'src', 'cli.ts');
const cache = join(server, 'dist', 'cli');
const manifestFile = join(cache, 'manifest.json');
/** Builds other processes may still be loading chunks from are kept this long after being replaced. */
const KEEP_OLD_BUILDS_MS = 3_600_000;

/** Size and modification time of a file, or null when it is absent. */
function signature(file) {
  try {
    const info = statSync(file);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The current build's cli.mjs when every input is unchanged; undefined otherwise. */
function freshBuild() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return undefined;
  }
  for (const [file, known] of Object.entries(manifest.inputs)) if (signature(resolve(root, file)) !== known) return undefined;
  return join(cache, manifest.build, 'cli.mjs');
}

/** Replaces `import.meta.url` in a workspace module by its own file's URL (the bundle lives elsewhere). */
const ownUrlPlugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/** Bundles the CLI into a new build folder and points the manifest at it; the path of its cli.mjs. */
async function build() {
  // esbuild as tsx itself resolves it: a dependency of tsx, not one of ours.
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild');
  const started = Date.now();
  const name = `build-${started}-${randomBytes(4).toString('hex')}`;
  const outdir = join(cache, name);
  const result = await esbuild.build({
    entryPoints: { cli: entry, 'sweep-worker': join(server, 'src', 'sweep', 'sweep-worker.ts'), 'backtest-thread': join(server, 'src', 'jobs', 'backtest-thread.ts') }, outdir, absWorkingDir: root, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20',
    outExtension: { '.js': '.mjs' }, packages: 'external', keepNames: true, sourcemap: 'linked', metafile: true, logLevel: 'silent',
    // Maps without the sources' text: Node reads each map when its chunk loads (a third of the
    // startup with the text in), and a stack trace needs only the mappings (Node shows the line from the file).
    sourcesContent: false,
    // Workspace packages are bundled from their sources (their package.json exports point at src/index.ts).
    alias: Object.fromEntries(['core', 'market', 'engine'].map((pkg) => [`@vyuha/${pkg}`, join(root, 'packages', pkg, 'src', 'index.ts')])),
    plugins: [ownUrlPlugin],
  });
  const files = [...Object.keys(result.metafile.inputs).map((input) => resolve(root, input)), join(root, 'package-lock.json'),
    ...['core', 'market', 'engine', 'server'].flatMap((pkg) => ['package.json', 'tsconfig.json'].map((file) => join(root, 'packages', pkg, file))),
    join(root, 'tsconfig.base.json'), fileURLToPath(import.meta.url)];
  // A file edited while esbuild ran may not be in this build: recorded as unknown, so the next run rebuilds.
  const inputs = Object.fromEntries(files.map((file) => {
    const known = signature(file);
    const editedDuringBuild = known !== null && Number(known.split(':')[1]) >= started;
    return [relative(root, file), editedDuringBuild ? 'edited during the build' : known];
  }));
  const previous = currentBuildName();
  const temporary = `${manifestFile}.${name}`;
  writeFileSync(temporary, JSON.stringify({ build: name, inputs }));
  renameSync(temporary, manifestFile);
  // The replaced build's folder is dated now: a process that read the old manifest a moment ago
  // may still be importing its chunks, so it is removed only after KEEP_OLD_BUILDS_MS.
  if (previous !== undefined && previous !== name) {
    const now = new Date();
    try {
      utimesSync(join(cache, previous), now, now);
    } catch {
      // Already removed by another process.
    }
  }
  removeOldBuilds(name);
  return join(outdir, 'cli.mjs');
}

function currentBuildName() {
  try {
    return JSON.parse(readFileSync(manifestFile, 'utf8')).build;
  } catch {
    return undefined;
  }
}

/** Removes build folders replaced more than KEEP_OLD_BUILDS_MS ago. */
function removeOldBuilds(current) {
  for (const entryName of readdirSync(cache)) {
    if (!entryName.startsWith('build-') || entryName === current) continue;
    const folder = join(cache, entryName);
    try {
      if (Date.now() - statSync(folder).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
}

async function loadMain() {
  if (process.env.VYUHA_BUNDLE !== '0') {
    let bundle = freshBuild();
    if (bundle === undefined) {
      try {
        mkdirSync(cache, { recursive: true });
        bundle = await build();
      } catch {
        bundle = undefined; // A source that does not compile: tsx below reports it in full.
      }
    }
    if (bundle !== undefined) {
      process.setSourceMapsEnabled(true);
      // The sweep pool's and the backtest jobs' threads load the bundle's own entries
      // (src/sweep/run-pool.ts, src/jobs/backtest-threads.ts via src/threads/thread-entry.ts).
      const sweepWorker = join(dirname(bundle), 'sweep-worker.mjs');
      if (signature(sweepWorker) !== null) process.env.VYUHA_SWEEP_WORKER = sweepWorker;
      const backtestThread = join(dirname(bundle), 'backtest-thread.mjs');
      if (signature(backtestThread) !== null) process.env.VYUHA_BACKTEST_THREAD = backtestThread;
      return (await import(pathToFileURL(bundle).href)).main;
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/cli.ts')).main;
}

const main = await loadMain();
process.exitCode = await main(process.argv.slice(2));
// Under the supervisor of `npm start` an IPC channel is open, and it would keep this process alive.
if (process.connected) process.disconnect();

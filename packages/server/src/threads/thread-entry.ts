// The module a worker thread of the server starts from. From the CLI bundle (bin/vyuha.mjs builds
// each thread entry beside cli.mjs and names it in an environment variable), that file; from the
// sources (tsx, vitest, benchmarks), the entry bundled once per process in memory with esbuild
// (tsx's own dependency) and started from a data: URL, so that a thread loads one module instead
// of the engine's hundreds through a loader.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What this file uses of esbuild's API. */
interface Bundler {
  buildSync(options: Record<string, unknown>): { outputFiles: ReadonlyArray<{ text: string }> };
}

const bundledFromSources = new Map<string, URL>();

/**
 * The URL to start a thread of `source` (a .ts file of this package) from: `process.env[bundledEnv]`
 * when the CLI bundle set it, else `source` bundled in memory.
 * @example new Worker(threadEntry({ source: new URL('./backtest-thread.ts', import.meta.url), bundledEnv: 'VYUHA_BACKTEST_THREAD' }))
 */
export function threadEntry(entry: { source: URL; bundledEnv: string }): URL {
  const bundled = process.env[entry.bundledEnv];
  if (bundled !== undefined && bundled !== '') return pathToFileURL(bundled);
  const key = entry.source.href;
  let url = bundledFromSources.get(key);
  if (url === undefined) {
    const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as Bundler;
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const output = esbuild.buildSync({
      entryPoints: [fileURLToPath(entry.source)], absWorkingDir: root, bundle: true, write: false, format: 'esm',
      platform: 'node', target: 'node20', packages: 'external', logLevel: 'silent',
      alias: Object.fromEntries(['core', 'market', 'engine'].map((name) => [`@vyuha/${name}`, join(root, 'packages', name, 'src', 'index.ts')])),
    });
    const text = (output.outputFiles[0] as { text: string }).text;
    url = new URL(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`);
    bundledFromSources.set(key, url);
  }
  return url;
}

/**
 * The Node options a thread started from `threadEntry` (or another self-contained bundle) runs
 * with: none. A worker otherwise inherits the process's `execArgv`, and under `--import tsx`
 * (tests, benchmarks, the CLI without its bundle) every thread then started tsx's loader for a
 * module that imports nothing but Node's own; the kernel benchmark's two threads ran about 5%
 * slower so (alternating runs: 48-50 against 50-54 M bars/s). V8's flags are the process's
 * whatever a thread is given, so `--no-concurrent-osr` (jit-settings.ts) still holds in it.
 */
export const BUNDLED_THREAD_OPTIONS = { execArgv: [] as string[] } as const;

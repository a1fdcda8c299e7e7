// The benchmarks run with the V8 settings the platform's processes apply to themselves
// (packages/server/src/jit-settings.ts), so that a figure they print is what the platform gets.
// scripts/bench.mjs is plain JavaScript and cannot import the TypeScript: it writes the flags out.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INLINED_BYTECODE_CUMULATIVE } from '../packages/server/src/jit-settings';

describe('scripts/bench.mjs', () => {
  it('starts every benchmark with the flags and values jit-settings.ts sets', () => {
    const bench = readFileSync(new URL('../scripts/bench.mjs', import.meta.url), 'utf8');
    const settings = readFileSync(new URL('../packages/server/src/jit-settings.ts', import.meta.url), 'utf8');
    const spawned = /spawnSync\(process\.execPath, \[([^\]]*)\]/.exec(bench)?.[1] ?? '';
    const flags = [...spawned.matchAll(/'(--[^']+)'/g)].map((match) => match[1] as string).filter((flag) => flag !== '--import');
    expect(flags).toEqual(['--no-concurrent-osr', `--max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_CUMULATIVE}`]);
    // Every flag jit-settings.ts sets, by name.
    const set = [...settings.matchAll(/setFlagsFromString\(['`](--[a-z-]+)/g)].map((match) => match[1] as string);
    expect(set).toEqual(flags.map((flag) => flag.split('=')[0]));
  });
});

import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function lintAs(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layer rule (core <- market <- engine <- {server, web})', () => {
  it.each(['core', 'market', 'engine'])('fails when %s imports node:fs', async (layer) => {
    const errors = await lintAs(`packages/${layer}/src/violation.ts`, "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n");
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: .*Node built-ins/)]);
  });

  it.each([
    ['a bare Node built-in', "import { join } from 'path';\nexport const j = join;\n"],
    ['the database driver', "import pg from 'pg';\nexport const p = pg;\n"],
    ['the server package', "import { main } from '@vyuha/server';\nexport const m = main;\n"],
    ['the web package', "import { App } from '@vyuha/web';\nexport const a = App;\n"],
    ['another package\'s src', "import { paise } from '@vyuha/core/src/money';\nexport const p = paise;\n"],
  ])('fails when engine imports %s', async (_what, code) => {
    expect(await lintAs('packages/engine/src/violation.ts', code)).toEqual([expect.stringMatching(/^no-restricted-imports:/)]);
  });

  it('fails when a lower layer imports a higher one', async () => {
    expect(await lintAs('packages/core/src/violation.ts', "import { HOME_MARKET } from '@vyuha/market';\nexport const h = HOME_MARKET;\n")).toHaveLength(1);
    expect(await lintAs('packages/market/src/violation.ts', "import * as engine from '@vyuha/engine';\nexport const e = engine;\n")).toHaveLength(1);
  });

  it.each([
    ['Date.now()', 'export const t = Date.now();\n', 'no-restricted-properties'],
    ['Math.random()', 'export const r = Math.random();\n', 'no-restricted-properties'],
    ['new Date()', 'export const d = new Date();\n', 'no-restricted-syntax'],
    ['fetch', "export const f = () => fetch('https://example.com');\n", 'no-restricted-globals'],
    ['setTimeout', 'export const s = () => setTimeout(() => undefined, 1);\n', 'no-restricted-globals'],
    ['process', 'export const e = process.env;\n', 'no-restricted-globals'],
  ])('fails when market calls %s', async (_what, code, rule) => {
    expect(await lintAs('packages/market/src/violation.ts', code)).toEqual([expect.stringMatching(new RegExp(`^${rule}:`))]);
  });

  it('accepts pure code that takes its time and randomness as arguments', async () => {
    const code = "import { paise } from '@vyuha/core';\nexport const later = (nowMs: number) => new Date(nowMs + 1);\nexport const fee = paise(2000);\n";
    expect(await lintAs('packages/engine/src/clean.ts', code)).toEqual([]);
  });

  it('allows the server to use Node, the database and the clock', async () => {
    const code = "import { readFileSync } from 'node:fs';\nimport pg from 'pg';\nexport const x = [readFileSync, pg, Date.now()];\n";
    expect(await lintAs('packages/server/src/ok.ts', code)).toEqual([]);
  });

  it('the whole repository passes the lint', async () => {
    const results = await eslint.lintFiles(['.']);
    const problems = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });
});

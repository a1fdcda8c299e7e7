import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('every package type-checks under the strict settings', () => {
  const root = join(import.meta.dirname, '..');
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'typecheck.mjs')], { cwd: root, encoding: 'utf8' });
  expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
  expect(result.status).toBe(0);
});

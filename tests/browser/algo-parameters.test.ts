// The /algo editor's $parameters in Chromium: an advanced user writes a rule with $fast and
// $slow (an error under the node until they are declared), declares both with ranges and the
// constraint $fast < $slow (the sweep's 19 combinations shown), sees a bad step and a constraint
// the defaults break reported under their own fields (and saving refused), saves, reloads and
// finds the declarations and the rule back. An algorithm name of its own: no demo row changes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, url, useBrowser } from './browser';

const TIMEOUT = 20_000;

async function fillParameter(page: Page, index: number, values: { name: string; default: number; from: number; to: number; step: number }): Promise<void> {
  await page.getByTestId(`algo-parameter-${index}-name`).fill(values.name, { timeout: TIMEOUT });
  for (const field of ['default', 'from', 'to', 'step'] as const) await page.getByTestId(`algo-parameter-${index}-${field}`).fill(String(values[field]));
}

/** The error Mantine shows under an input (the element its aria-describedby names). */
async function fieldError(page: Page, testId: string): Promise<string | null> {
  const input = page.getByTestId(testId);
  if ((await input.getAttribute('aria-invalid')) !== 'true') return null;
  const described = await input.getAttribute('aria-describedby');
  const errorId = described?.split(' ').find((id) => id.endsWith('-error'));
  return errorId === undefined ? null : page.locator(`[id="${errorId}"]`).textContent();
}

describe('/algo editor: parameters', () => {
  const session = useBrowser();

  it('declares $fast and $slow with a constraint, uses them in a rule, shows bad ones by field, saves and reloads them', { timeout: 120_000 }, async () => {
    const { page } = session();
    const name = `Browser SMA sweep ${Date.now()}`;
    await signIn(page, 'advanced');
    await page.goto(url('/algo'));
    await page.getByTestId('algo-new').click({ timeout: TIMEOUT });
    await page.getByTestId('algo-name').fill(name, { timeout: TIMEOUT });

    // The rule names parameters not declared yet: the error is under the node, at the $name.
    await page.getByTestId('algo-add-condition').click();
    await page.getByTestId('algo-expression-condition-1').fill('crossover(sma(close, $fast), sma(close, $slow))');
    await page.getByTestId('algo-add-buy').click();
    const nodeError = page.getByTestId('algo-node-error-condition-1');
    await expect.poll(() => nodeError.textContent(), { timeout: TIMEOUT }).toContain("1:22: unknown parameter '$fast': add it under Parameters");

    // Declare both (each new one gets a free name), then the constraint.
    await page.getByTestId('algo-parameter-add').click();
    await page.getByTestId('algo-parameter-add').click();
    expect(await page.getByTestId('algo-parameter-1-name').inputValue()).toBe('p2');
    await fillParameter(page, 0, { name: 'fast', default: 10, from: 5, to: 20, step: 5 });
    await fillParameter(page, 1, { name: 'slow', default: 30, from: 20, to: 60, step: 10 });
    await page.getByTestId('algo-constraint-add').click();
    await page.getByTestId('algo-constraint-0').fill('$fast < $slow');
    await nodeError.waitFor({ state: 'detached', timeout: TIMEOUT });
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });
    await expect.poll(() => page.getByTestId('algo-parameters-grid').textContent(), { timeout: TIMEOUT }).toContain('19 combinations');

    // A bad step: its message under the step field, saving refused.
    await page.getByTestId('algo-parameter-1-step').fill('0');
    await expect.poll(() => fieldError(page, 'algo-parameter-1-step'), { timeout: TIMEOUT }).toBe('must be greater than 0, got 0');
    expect(await fieldError(page, 'algo-parameter-1-from')).toBeNull();
    await page.getByTestId('algo-save').click();
    await page.getByText(/Fix the 1 error before saving/).first().waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-parameter-1-step').fill('10');
    await expect.poll(() => fieldError(page, 'algo-parameter-1-step'), { timeout: TIMEOUT }).toBeNull();

    // A constraint the defaults break, and one naming an undeclared parameter: each under its constraint.
    await page.getByTestId('algo-constraint-0').fill('$fast > $slow');
    await expect.poll(() => page.getByTestId('algo-constraint-0-error').textContent(), { timeout: TIMEOUT })
      .toBe('$fast = 10, $slow = 30 break the constraint $fast > $slow');
    await page.getByTestId('algo-constraint-0').fill('$fast < $slwo');
    await expect.poll(() => page.getByTestId('algo-constraint-0-error').textContent(), { timeout: TIMEOUT }).toContain("1:9: unknown parameter '$slwo'");
    await page.getByTestId('algo-constraint-0').fill('$fast < $slow');
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });

    await page.getByTestId('algo-save').click();
    await page.getByText(new RegExp(`Saved version 1 of ${name}`)).first().waitFor({ timeout: TIMEOUT });
    await page.waitForURL(/algorithm=[0-9a-f-]{36}/, { timeout: TIMEOUT });
    await page.getByTestId('algo-version-1').waitFor({ timeout: TIMEOUT });

    // Reloaded from the stored version: the declarations, the constraint and the rule are back, nothing unsaved.
    await page.reload();
    await page.getByTestId('algo-parameter-1-name').waitFor({ timeout: TIMEOUT });
    const values = async (index: number): Promise<string[]> => Promise.all(
      ['name', 'default', 'from', 'to', 'step'].map((field) => page.getByTestId(`algo-parameter-${index}-${field}`).inputValue()));
    expect(await values(0)).toEqual(['fast', '10', '5', '20', '5']);
    expect(await values(1)).toEqual(['slow', '30', '20', '60', '10']);
    expect(await page.getByTestId('algo-constraint-0').inputValue()).toBe('$fast < $slow');
    expect(await page.getByTestId('algo-expression-condition-1').inputValue()).toBe('crossover(sma(close, $fast), sma(close, $slow))');
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('algo-save').isDisabled()).toBe(true);

    // Removing a parameter the rule uses brings the node's error back; the change is unsaved.
    await page.getByTestId('algo-parameter-1-remove').click();
    await expect.poll(() => nodeError.textContent(), { timeout: TIMEOUT }).toContain("unknown parameter '$slow': declare it under Parameters (declared: $fast)");
    await expect.poll(() => page.getByTestId('algo-constraint-0-error').textContent(), { timeout: TIMEOUT }).toContain("unknown parameter '$slow'");
    expect(await page.getByTestId('algo-save').isDisabled()).toBe(false);
  });
});

// The /algo screen in Chromium: an advanced user builds an algorithm in the rule-graph editor
// (live expression errors with line:column under the node), saves versions 1 and 2, opens the
// old one, publishes it and finds it under the Published filter, sees its signals on the preview
// chart, and keeps the signal-enabled flag across a reload. Each run uses an algorithm name of
// its own, so it changes no row of the demo world.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, signIn, url, useBrowser } from './browser';

const TIMEOUT = 20_000;

async function setExpression(page: Page, nodeId: string, expression: string): Promise<void> {
  await page.getByTestId(`algo-expression-${nodeId}`).fill(expression, { timeout: TIMEOUT });
}

async function toast(page: Page, text: RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ timeout: TIMEOUT });
}

async function theme(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.theme);
}

/** Drags a connection from one node's output handle to another's input handle. */
async function connect(page: Page, source: string, target: string): Promise<void> {
  const from = await page.getByTestId(`algo-handle-out-${source}`).boundingBox();
  const to = await page.getByTestId(`algo-handle-in-${target}`).boundingBox();
  if (from === null || to === null) throw new Error(`handles of ${source} -> ${target} are not on screen`);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
}

describe('/algo editor', () => {
  const session = useBrowser();
  /** The algorithm the first test publishes, which the second opens as another user. */
  let name = '';

  it('builds, checks, saves two versions, publishes and previews an algorithm', { timeout: 180_000 }, async () => {
    const { page } = session();
    name = `Browser EMA cross ${Date.now()}`;
    await signIn(page, 'advanced');
    await page.goto(url('/algo'));
    await page.getByTestId('algo-new').click({ timeout: TIMEOUT });
    await page.getByTestId('algo-name').fill(name, { timeout: TIMEOUT });

    // Condition -> Buy: a new Buy is wired from the selected condition.
    await page.getByTestId('algo-add-condition').click();
    await setExpression(page, 'condition-1', 'crossover(ema(close, 9), ema(clsoe, 21))');
    const error = page.getByTestId('algo-node-error-condition-1');
    await expect.poll(() => error.textContent(), { timeout: TIMEOUT }).toContain("1:30: unknown name 'clsoe'; did you mean 'close'?");
    expect(await page.getByTestId('algo-node-condition-1').getAttribute('data-invalid')).toBe('true');
    // Saving is refused while there are errors.
    await page.getByTestId('algo-save').click();
    await toast(page, /Fix the \d+ errors? before saving/);
    // The language's range, division and nesting errors land under the node the same way.
    for (const [expression, shown] of [
      ['close > 1e400', '1:9: number 1e400 is out of range'],
      ['close / 0 > 1', "1:9: division by zero: the right side of '/' is always 0"],
      [`${'('.repeat(5000)}close${')'.repeat(5000)} > 1`, '1:101: expression nested too deeply (at most 100 levels)'],
    ] as const) {
      await setExpression(page, 'condition-1', expression);
      await expect.poll(() => error.textContent(), { timeout: TIMEOUT }).toContain(shown);
    }
    await setExpression(page, 'condition-1', 'crossover(ema(close, 9), ema(close, 21))');
    await error.waitFor({ state: 'detached', timeout: TIMEOUT });
    await page.getByTestId('algo-add-buy').click();

    // Condition -> Sell, and an Exit connected by dragging between the handles.
    await page.getByTestId('algo-add-condition').click();
    await setExpression(page, 'condition-2', 'crossunder(ema(close, 9), ema(close, 21))');
    await page.getByTestId('algo-add-sell').click();
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.getByTestId('algo-add-exit').click();
    await page.getByTestId('algo-node-error-exit-1').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-canvas').getByRole('button', { name: 'Fit View' }).click();
    await connect(page, 'condition-2', 'exit-1');
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });

    await page.getByTestId('algo-save').click();
    await toast(page, new RegExp(`Saved version 1 of ${name}`));
    await page.waitForURL(/algorithm=[0-9a-f-]{36}/, { timeout: TIMEOUT });
    await page.getByTestId('algo-version-1').waitFor({ timeout: TIMEOUT });

    // Edit and save version 2; the history lists both.
    await setExpression(page, 'condition-1', 'crossover(ema(close, 10), ema(close, 21))');
    await page.getByTestId('algo-save').click();
    await toast(page, new RegExp(`Saved version 2 of ${name}`));
    await page.getByTestId('algo-version-2').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-version-1').waitFor();
    // Regression: the editor reopened on the saved row before version 2's graph had loaded, and
    // showed version 1's graph as unsaved changes.
    await expect.poll(() => page.getByTestId('algo-save').isDisabled(), { timeout: TIMEOUT }).toBe(true);
    expect(await page.getByTestId('algo-expression-condition-1').inputValue()).toBe('crossover(ema(close, 10), ema(close, 21))');

    // The signal preview draws the algorithm's signals on the candles.
    const chart = page.getByTestId('algo-preview-chart');
    await expect.poll(async () => Number(await chart.getAttribute('data-signals')), { timeout: 60_000 }).toBeGreaterThan(0);
    await page.locator('[data-testid="algo-preview-chart"] canvas').first().waitFor();
    const first = await theme(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `algo-editor-${first}`);
    const other = first === 'dark' ? 'light' : 'dark';
    // The header's toggle saves the theme to the account: it is switched back afterwards.
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => theme(page)).toBe(other);
    await screenshot(page, `algo-editor-${other}`);
    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => theme(page)).toBe(first);

    // The old version opens read-only.
    await page.getByTestId('algo-version-open-1').click();
    await page.getByTestId('algo-old-version').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('algo-expression-condition-1').inputValue()).toBe('crossover(ema(close, 9), ema(close, 21))');
    expect(await page.getByTestId('algo-expression-condition-1').getAttribute('readonly')).not.toBeNull();
    // Restoring it saves its graph as version 3.
    await page.getByTestId('algo-restore').click();
    await toast(page, new RegExp(`Saved version 3 of ${name}`));
    await page.getByTestId('algo-old-version').waitFor({ state: 'detached', timeout: TIMEOUT });
    await page.getByTestId('algo-version-3').waitFor({ timeout: TIMEOUT });
    await expect.poll(() => page.getByTestId('algo-expression-condition-1').inputValue(), { timeout: TIMEOUT }).toBe('crossover(ema(close, 9), ema(close, 21))');

    // The signal-enabled flag is saved: off survives a reload, and the preview stops.
    await page.getByTestId('algo-signal-enabled').uncheck({ force: true });
    await toast(page, /Signals disabled/);
    await page.reload();
    await page.getByTestId('algo-preview-status').filter({ hasText: 'Signals are disabled' }).waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('algo-signal-enabled').isChecked()).toBe(false);
    await page.getByTestId('algo-signal-enabled').check({ force: true });
    await toast(page, /Signals enabled/);

    // Publish (with a confirmation); the Published filter lists it.
    await page.getByTestId('algo-publish').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await toast(page, /is published/);
    await page.getByTestId('algo-published-badge').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-back').click();
    await page.getByTestId('algo-filter').getByText('Published', { exact: true }).click();
    await page.getByTestId(`algo-row-${name}`).waitFor({ timeout: TIMEOUT });

    // A second algorithm with the same name: the unique violation shows next to the name field.
    await page.getByTestId('algo-new').click();
    await page.getByTestId('algo-name').fill(name, { timeout: TIMEOUT });
    await page.getByTestId('algo-add-condition').click();
    await setExpression(page, 'condition-1', 'close > open');
    await page.getByTestId('algo-add-buy').click();
    await page.getByTestId('algo-save').click();
    await page.getByText('You already have an algorithm with this name').waitFor({ timeout: TIMEOUT });
  });

  it('opens another user\'s published algorithm read-only and copies it', { timeout: 120_000 }, async () => {
    expect(name, 'the first test publishes the algorithm').not.toBe('');
    const { page } = session();
    await signIn(page, 'demo');
    await page.goto(url('/algo'));
    await page.getByTestId('algo-filter').getByText('Published', { exact: true }).click({ timeout: TIMEOUT });
    await page.getByTestId(`algo-row-${name}`).click({ timeout: TIMEOUT });
    await page.getByTestId('algo-read-only').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('algo-save').count()).toBe(0);
    expect(await page.getByTestId('algo-add-condition').count()).toBe(0);
    expect(await page.getByTestId('algo-expression-condition-1').getAttribute('readonly')).not.toBeNull();

    await page.getByTestId('algo-copy').click();
    await expect.poll(() => page.getByTestId('algo-name').inputValue(), { timeout: TIMEOUT }).toBe(`${name} (copy)`);
    // A hold node fed by the selected condition, drawn 20 high (docs/PRODUCT.md section 3).
    await page.getByTestId('algo-node-condition-1').click({ position: { x: 60, y: 10 } });
    await page.getByTestId('algo-add-hold').click();
    await page.getByTestId('algo-hold-candles-hold-1').fill('3');
    expect(await page.locator('.react-flow__node[data-id="hold-1"]').getAttribute('style')).toContain('height: 20px');
    await page.getByTestId('algo-errors-none').waitFor({ timeout: TIMEOUT });
    await page.getByTestId('algo-save').click();
    await toast(page, new RegExp(`Saved version 1 of ${name} \\(copy\\)`));
    await page.getByTestId('algo-version-1').waitFor({ timeout: TIMEOUT });
    expect(await page.getByTestId('algo-read-only').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'algo-editor-copy-demo');
  });
});

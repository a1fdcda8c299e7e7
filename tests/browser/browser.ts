// Helpers for the browser tests: Debian's Chromium driven by playwright-core (never a browser of
// Playwright's own: `playwright install` cannot work on these machines), a fresh context per test,
// a console-error collector that fails the test, screenshots under .test-results/screenshots/,
// sign-in as a demo user through the real sign-in page, and the mail inbox of the global setup.
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import type { ReceivedMail } from './global-setup';

export type { ReceivedMail } from './global-setup';

/** Debian's chromium package; CHROMIUM_PATH overrides it (another Chromium or Chrome on a laptop). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags this machine needs: as root there is no sandbox, there is no GPU,
 * and the network is closed, so everything Chromium would fetch in the background is turned off
 * (otherwise it keeps trying, many connections at a time, and looks up Google's hosts at start).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export const DEMO_PASSWORD = 'vyuha-demo-2026';
export const DEMO_ROLES = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'support'] as const;
export type DemoRole = (typeof DEMO_ROLES)[number];

const repoRoot = resolve(import.meta.dirname, '..', '..');
/** Where screenshots go (ignored by git through .test-results/). */
export const SCREENSHOT_DIR = join(repoRoot, '.test-results', 'screenshots');

/** Throws the global setup's failure (web build, PostgreSQL, server), if it failed. */
export function assertSetupSucceeded(): void {
  const failure = inject('browserSetupError');
  if (failure) throw new Error(`the browser tests' global setup failed (tests/browser/global-setup.ts):\n${failure}`);
}

/** The server under test, without a trailing slash. */
export function baseUrl(): string {
  assertSetupSucceeded();
  return inject('baseUrl');
}

/** An absolute URL on the server under test: `url('/dashboard')`. */
export function url(path: string): string {
  return new URL(path, `${baseUrl()}/`).toString();
}

/** Launches Debian's Chromium headless (Playwright gives it a new, empty profile of its own). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

/** One console error or uncaught page error, with the page URL it happened on. */
export interface PageProblem {
  readonly kind: 'console.error' | 'pageerror';
  readonly text: string;
  readonly url: string;
}

/** Collects console errors and uncaught exceptions of every page of a context. */
export class ConsoleErrors {
  readonly problems: PageProblem[] = [];
  private readonly allowed: RegExp[] = [];

  /** Watches `context`: pages opened later (popups, new tabs) are watched too. */
  watch(context: BrowserContext): void {
    const watchPage = (page: Page): void => {
      page.on('console', (message) => {
        if (message.type() === 'error') this.problems.push({ kind: 'console.error', text: message.text(), url: page.url() });
      });
      page.on('pageerror', (error) => {
        this.problems.push({ kind: 'pageerror', text: error.stack ?? error.message, url: page.url() });
      });
    };
    context.pages().forEach(watchPage);
    context.on('page', watchPage);
  }

  /**
   * Tolerates problems whose text matches `pattern` for the rest of this test: only for an error
   * the test provokes on purpose (say, the 401 Chromium logs for a wrong password).
   */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  /** The problems no `allow` pattern covers. */
  unexpected(): PageProblem[] {
    return this.problems.filter((problem) => !this.allowed.some((pattern) => pattern.test(problem.text)));
  }

  /** Throws, listing them, when there are unexpected problems. */
  assertNone(): void {
    const unexpected = this.unexpected();
    if (unexpected.length === 0) return;
    const lines = unexpected.map((problem) => `  [${problem.kind}] at ${problem.url}: ${problem.text}`);
    throw new Error(`${unexpected.length} console error(s) or page error(s) (acceptance: none on any screen):\n${lines.join('\n')}`);
  }
}

/** What a browser test works with; a new context, page and collector for every test. */
export interface BrowserSession {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly consoleErrors: ConsoleErrors;
}

export interface UseBrowserOptions {
  /** Viewport of every page (default 1280 x 800). */
  readonly viewport?: { readonly width: number; readonly height: number };
}

/**
 * For the enclosing file or describe block: one Chromium, and for each test a fresh context (no
 * cookies, no storage) with one page. After each test: a screenshot `failed-<test>.png` when it
 * failed, then the test fails if any console error or page error was seen; the context closes.
 * Returns a getter for the current test's session.
 * @example const session = useBrowser(); it('...', async () => { const { page } = session(); ... });
 */
export function useBrowser(options: UseBrowserOptions = {}): () => BrowserSession {
  let browser: Browser | undefined;
  let current: BrowserSession | undefined;
  beforeAll(async () => {
    assertSetupSucceeded();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
  beforeEach(async () => {
    if (!browser) throw new Error('useBrowser: the browser did not start');
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    const consoleErrors = new ConsoleErrors();
    consoleErrors.watch(context);
    const page = await context.newPage();
    current = { browser, context, page, consoleErrors };
  });
  afterEach(async (testContext) => {
    const session = current;
    current = undefined;
    if (!session) return;
    try {
      if (testContext.task.result?.state === 'fail' && !session.page.isClosed()) {
        await screenshot(session.page, `failed-${testContext.task.name}`).catch(() => undefined);
      }
      session.consoleErrors.assertNone();
    } finally {
      await session.context.close();
    }
  });
  return () => {
    if (!current) throw new Error('useBrowser: the session exists only inside a test of the block that called useBrowser()');
    return current;
  };
}

/** A file name from free text: letters, digits, dot, dash and underscore only. */
function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
}

/** Sets the page's theme through the header's toggle (which also saves it to the account). */
export async function setTheme(page: Page, theme: 'dark' | 'light', timeoutMs = 10_000): Promise<void> {
  const current = (): Promise<string | undefined> => page.evaluate(() => document.documentElement.dataset.theme);
  if (await current() !== theme) {
    await page.getByTestId('theme-toggle').click();
    // The "Settings updated" toast stays while the pointer rests on it (it opens where the
    // pointer is on a phone): move the pointer away so it closes on time.
    await page.mouse.move(1, (page.viewportSize()?.height ?? 800) - 1);
  }
  await expect.poll(current, { timeout: timeoutMs }).toBe(theme);
}

/** Picks an option of a Mantine select or multi-select found by its test id (optionally typing to filter first). */
export async function chooseOption(page: Page, testId: string, option: { type?: string; name: string | RegExp }): Promise<void> {
  const input = page.getByTestId(testId);
  await input.click();
  if (option.type !== undefined) await input.fill(option.type);
  await page.getByRole('option', { name: option.name }).click();
  await page.keyboard.press('Escape');
}

/** Saves a full-page PNG to .test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${fileName(name)}.png`);
  await mkdir(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The e-mail address of a demo user. */
export function demoEmail(role: DemoRole): string {
  return `${role}@demo.vyuha.in`;
}

/**
 * Signs in as the demo user of `role` through the real sign-in page, and waits until the app has
 * left /authenticate/ (wherever it lands: the dashboard, or the page a guard sent us from).
 */
export async function signIn(page: Page, role: DemoRole, options: { password?: string; timeoutMs?: number } = {}): Promise<void> {
  const timeout = options.timeoutMs ?? 15_000;
  await page.goto(url('/authenticate/signin'));
  await page.getByTestId('signin-email').fill(demoEmail(role), { timeout });
  await page.getByTestId('signin-password').fill(options.password ?? DEMO_PASSWORD, { timeout });
  await page.getByTestId('signin-submit').click({ timeout });
  await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout });
}

/** Every mail the SMTP server received (for `to`, when given), oldest first. */
export async function mails(to?: string): Promise<ReceivedMail[]> {
  assertSetupSucceeded();
  const address = new URL('/mails', inject('mailUrl'));
  if (to !== undefined) address.searchParams.set('to', to);
  const response = await fetch(address);
  if (!response.ok) throw new Error(`mail inbox: HTTP ${response.status}`);
  return (await response.json()) as ReceivedMail[];
}

/** Forgets every mail received so far. */
export async function clearMails(): Promise<void> {
  assertSetupSucceeded();
  const response = await fetch(new URL('/mails', inject('mailUrl')), { method: 'DELETE' });
  if (!response.ok) throw new Error(`mail inbox: HTTP ${response.status}`);
}

/**
 * Waits for mail number `since + 1` to `to` (count the mails before the action that sends one,
 * then pass that count), polling the inbox.
 */
export async function waitForMail(to: string, options: { since?: number; timeoutMs?: number } = {}): Promise<ReceivedMail> {
  const since = options.since ?? 0;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const mail = (await mails(to))[since];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail #${since + 1} to ${to} within the timeout`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

/** The first http(s) link in a mail's text (verification, password reset, magic link). */
export function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/[^\s<>"]+/.exec(mail.text);
  if (!match) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(match[0]);
}

/** The two viewports every trading screen is checked at (issue 18): a laptop and a phone. */
export const LAYOUT_VIEWPORTS = [{ width: 1440, height: 900 }, { width: 390, height: 844 }] as const;

export interface LayoutProblem {
  readonly kind: 'overflow' | 'overlap';
  readonly detail: string;
}

/**
 * What is wrong with the page's layout at its current size: the document wider than the window (a
 * sideways scroll), a visible control or heading reaching past the window's right edge, or two
 * visible controls (buttons, links, inputs, headings, badges) overlapping without one holding the
 * other. Scrollable boxes (a wide table in a scroll area) are allowed to hold wider content; with a
 * modal dialog or drawer open only its controls count, and a field's own parts may sit on it.
 */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: Array<{ kind: 'overflow' | 'overlap'; detail: string }> = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push({ kind: 'overflow', detail: `the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window` });
    }
    const describe = (element: Element): string => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const label = element.getAttribute('aria-label') ?? element.getAttribute('data-testid') ?? '';
      return `<${element.tagName.toLowerCase()}${label === '' ? '' : ` ${label}`}> "${text}"`;
    };
    const insideScroller = (element: Element): boolean => {
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (/(auto|scroll|hidden)/.test(style.overflowX) && parent.scrollWidth > parent.clientWidth + 1) return true;
      }
      return false;
    };
    const visible = (element: Element): DOMRect | undefined => {
      const box = element.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) return undefined;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.opacity === '0') return undefined;
      return box;
    };
    // An open modal dialog or drawer is the layer the reader sees: only its controls are checked.
    const layers = [...document.querySelectorAll('[role="dialog"][aria-modal="true"]')];
    const scope: ParentNode = layers.at(-1) ?? document;
    // A field's own parts (a number input's steppers, a select's chevron) sit on the input by design.
    const field = (element: Element): Element | null => element.closest('.mantine-InputWrapper-root, .mantine-Input-wrapper');
    const controls = [...scope.querySelectorAll('button, a[href], input:not([type="hidden"]), select, textarea, h1, h2, h3, h4, .mantine-Badge-root')]
      .map((element) => ({ element, box: visible(element) }))
      .filter((entry): entry is { element: Element; box: DOMRect } => entry.box !== undefined && !insideScroller(entry.element));
    for (const { element, box } of controls) {
      if (box.right > width + 1) problems.push({ kind: 'overflow', detail: `${describe(element)} ends at ${Math.round(box.right)}px, past the ${width}px window` });
    }
    for (let i = 0; i < controls.length; i += 1) {
      for (let j = i + 1; j < controls.length; j += 1) {
        const a = controls[i] as { element: Element; box: DOMRect };
        const b = controls[j] as { element: Element; box: DOMRect };
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const fieldOfA = field(a.element);
        if (fieldOfA !== null && fieldOfA === field(b.element)) continue;
        const overlapX = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const overlapY = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        // A pixel or two of touching borders is not an overlap a reader sees.
        if (overlapX > 2 && overlapY > 2) problems.push({ kind: 'overlap', detail: `${describe(a.element)} overlaps ${describe(b.element)}` });
      }
    }
    return problems;
  });
}

/**
 * Screenshots of the page in both themes at both LAYOUT_VIEWPORTS
 * (`<name>-<theme>-<width>x<height>.png`), each checked with layoutProblems; fails listing every
 * problem found. `ready` waits for the screen's content after a resize or theme change. The theme
 * is switched through the header's toggle (saved with the account), and left as it was found.
 */
export async function screenshotLayouts(page: Page, name: string, ready: (page: Page) => Promise<void> = async () => undefined): Promise<void> {
  const original = await page.evaluate(() => document.documentElement.dataset.theme);
  const startSize = page.viewportSize();
  const problems: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    const switching = await page.evaluate(() => document.documentElement.dataset.theme) !== theme;
    await setTheme(page, theme);
    // Saving the theme raises a toast over the top of the page for 3 s: a passing overlay, not the
    // layout. In the signed-in shell the theme is saved with the account, and its toast comes when
    // the save answers: wait for it to come, then to go.
    const toast = page.locator('.mantine-Notification-root').first();
    if (switching && await page.locator('nav.mantine-AppShell-navbar').count() > 0) await toast.waitFor({ state: 'attached', timeout: 5_000 }).catch(() => undefined);
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    for (const viewport of LAYOUT_VIEWPORTS) {
      await page.setViewportSize(viewport);
      await ready(page);
      // A resize reflows on the next frame: wait for two before measuring.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      // A resize to a phone closes the side menu with a slide: measure once every finite transition
      // has ended (loaders spin for ever and do not count).
      await page.waitForFunction(() => document.getAnimations()
        .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().iterations !== Infinity).length === 0,
      undefined, { timeout: 5_000 }).catch(() => undefined);
      const label = `${name}-${theme}-${viewport.width}x${viewport.height}`;
      await screenshot(page, label);
      for (const problem of await layoutProblems(page)) problems.push(`${label}: ${problem.kind}: ${problem.detail}`);
    }
  }
  if (original === 'dark' || original === 'light') await setTheme(page, original);
  if (startSize !== null) await page.setViewportSize(startSize);
  expect(problems, 'layout problems').toEqual([]);
}

/**
 * Opens `path` twice as a new tab would, and prints how long the screen took from navigation to
 * `readySelector` being visible: on the first visit (the screen's code never run in this browser
 * before) and on a return (its code cached, as for a trader who opens it every market day). Each
 * starts from a blank page half a second after the last one closed, so the time is the screen's,
 * not that of the page the test was on winding down. Issue 18: each screen's first render under
 * 1 s, measured and printed, never asserted.
 */
export async function measureFirstRender(page: Page, path: string, readySelector: string): Promise<{ first: number; returning: number }> {
  const timed = async (): Promise<number> => {
    await page.goto('about:blank');
    await page.waitForTimeout(500);
    const started = Date.now();
    await page.goto(url(path));
    await page.locator(readySelector).first().waitFor({ state: 'visible', timeout: 30_000 });
    return Date.now() - started;
  };
  const first = await timed();
  const returning = await timed();
  process.stdout.write(`first render ${path}: ${first} ms on the first visit, ${returning} ms on a return\n`);
  return { first, returning };
}

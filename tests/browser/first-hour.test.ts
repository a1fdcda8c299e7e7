// A newcomer's first hour, as the README promises it: `npm ci && npm start`, then in the browser at
// the printed address (http://127.0.0.1:PORT) sign up, read the verification mail with
// `npx vyuha outbox` (no mail server), verify, sign in, try the other sign-in methods the demo
// world switches on, and sign in as each of the nine demo roles.
//
// Unlike the other browser tests this one runs its own server exactly as `npm start` does:
// scripts/start.mjs (web build check, then the crash supervisor, then `vyuha start`), a fresh
// DATA_DIR in the temp folder, the demo world without synthetic history (VYUHA_DEMO_HISTORY=0, to
// stay fast), auth rate limits ON and no SMTP, with an environment cleaned of the test run's own
// settings. Everything goes through 127.0.0.1 (one address), as on the newcomer's machine.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type CliProcess } from '../../packages/server/test/helpers/cli-process';
import { runScript, START_SCRIPT, VYUHA_BIN, waitForOutput } from '../../packages/server/test/helpers/supervised-process';
import { DEMO_PASSWORD, DEMO_ROLES, demoEmail, screenshot, useBrowser } from './browser';

let dataDir: string;
let env: NodeJS.ProcessEnv;
let server: CliProcess;
/** http://127.0.0.1:PORT, as `npm start` prints it. */
let origin: string;
const newcomer = { name: 'Asha Newcomer', email: `asha.${Date.now()}@example.in`, password: 'first-hour-2026' };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vyuha-first-hour-'));
  await chmod(dataDir, 0o755);
  env = { DATA_DIR: dataDir, PORT: String(await freePort()), VYUHA_PG_PORT: String(await freePort()), VYUHA_DEMO_HISTORY: '0' };
  server = runScript(START_SCRIPT, { env, clean: true });
  origin = (await waitForOutput(server, { pattern: /Vyuha is running at (\S+)/g, timeoutMs: 240_000 }))[1] ?? '';
}, 300_000);

afterAll(async () => {
  if (server !== undefined) {
    server.child.kill('SIGTERM');
    const exited = await server.exited;
    // Ctrl+C / SIGTERM stop the supervised server cleanly.
    expect(exited).toEqual({ code: 0, signal: null });
  }
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** `npx vyuha outbox --to <to>` on this server's data folder, until a message matching `pattern` is there. */
async function fromOutbox(to: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const cli = runScript(VYUHA_BIN, { env, clean: true, args: ['outbox', '--to', to, '--limit', '1'] });
    const { code } = await cli.exited;
    expect(code, cli.output()).toBe(0);
    const found = pattern.exec(cli.output())?.[1];
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing matching ${pattern} in the outbox for ${to}:\n${cli.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const LINK = /link: (\S+)/;

async function landOnDashboard(page: Page): Promise<void> {
  await page.waitForURL((address) => address.pathname === '/dashboard', { timeout: 20_000 });
}

async function signOut(page: Page): Promise<void> {
  // At once, as an impatient person would: first-visit preference writes still in flight must not
  // go out without a token after the sign-out (a 400 in the console fails the test).
  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  await page.waitForURL((address) => address.pathname === '/authenticate/signin');
}

async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/authenticate/signin`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((address) => !address.pathname.startsWith('/authenticate/'), { timeout: 20_000 });
}

async function chooseTab(page: Page, label: string): Promise<void> {
  await page.locator('.mantine-SegmentedControl-label', { hasText: label }).click();
}

describe("a newcomer's first hour on npm start", () => {
  const session = useBrowser();

  it('starts at http://127.0.0.1:PORT with every method that works on one machine offered', async () => {
    const { page } = session();
    expect(origin).toBe(`http://127.0.0.1:${env.PORT}`);
    await page.goto(`${origin}/authenticate/signin`);
    await page.getByTestId('signin-email').waitFor();
    await expect.poll(() => page.locator('.mantine-SegmentedControl-label').allTextContents(), { timeout: 15_000 }).toEqual(['Password', 'Magic link', 'SMS code']);
    await page.getByTestId('signin-anonymous').waitFor();
    // Security keys: the demo world's relying party is localhost.
    expect(await page.getByTestId('security-key-elsewhere').textContent()).toContain(`Security keys work at http://localhost:${env.PORT}`);
    await screenshot(page, 'first-hour-signin');
    await page.goto(`http://localhost:${env.PORT}/authenticate/signin`);
    await expect.poll(() => page.locator('.mantine-SegmentedControl-label').allTextContents(), { timeout: 15_000 }).toEqual(['Password', 'Magic link', 'SMS code', 'Security key']);
  });

  it('signs up at the README address, reads the mail with npx vyuha outbox, verifies and signs in', async () => {
    const { page } = session();
    await page.goto(`${origin}/authenticate/signup`);
    await page.getByTestId('signup-display-name').fill(newcomer.name);
    await page.getByTestId('signup-email').fill(newcomer.email);
    await page.getByTestId('signup-password').fill(newcomer.password);
    await page.getByTestId('signup-confirm-password').fill(newcomer.password);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL((address) => address.pathname === '/authenticate/signup-success', { timeout: 20_000 });
    // No mail server: the page says where the mail went and how to read it.
    await expect.poll(() => page.getByTestId('outbox-note').textContent(), { timeout: 15_000 }).toContain(`npx vyuha outbox --to ${newcomer.email}`);
    await screenshot(page, 'first-hour-signup-success');

    const link = await fromOutbox(newcomer.email, LINK);
    expect(link).toContain('/v1/auth/verify?ticket=verifyEmail');
    await page.goto(link);
    await landOnDashboard(page);
    await signOut(page);
    await signInWithPassword(page, newcomer.email, newcomer.password);
    await landOnDashboard(page);
  }, 120_000);

  it('signs in with a magic link and with an SMS code, both read from the outbox', async () => {
    const { page } = session();
    await page.goto(`${origin}/authenticate/signin`);
    await chooseTab(page, 'Magic link');
    await page.getByTestId('magic-link-email').fill(newcomer.email);
    await page.getByTestId('magic-link-submit').click();
    await page.getByTestId('magic-link-sent').waitFor();
    expect(await page.getByTestId('outbox-note').textContent()).toContain(`npx vyuha outbox --to ${newcomer.email}`);
    await page.goto(await fromOutbox(newcomer.email, /link: (\S+signinPasswordless\S*)/));
    await landOnDashboard(page);
    await signOut(page);

    const phone = '+919876512345';
    await chooseTab(page, 'SMS code');
    await page.getByTestId('sms-phone').fill(phone);
    await page.getByTestId('sms-submit').click();
    await page.getByTestId('sms-code').waitFor();
    await page.getByTestId('sms-code').fill(await fromOutbox(phone, /sign-in code is (\d{6})/));
    await page.getByTestId('sms-code-submit').click();
    await landOnDashboard(page);
  }, 120_000);

  it('signs in as each of the nine demo roles, one after another, from one address with rate limits on', async () => {
    const { page } = session();
    for (const role of DEMO_ROLES) {
      await signInWithPassword(page, demoEmail(role), DEMO_PASSWORD);
      expect(new URL(page.url()).origin).toBe(origin);
      await signOut(page);
    }
  }, 240_000);
});

// `npx vyuha outbox`: a newcomer without a mail server had no way to read the verification mail
// (it sat in auth.outbox, readable only through SQL or an administrator's GraphQL). The command
// prints the latest messages with their links and codes, from DATABASE_URL or from the embedded
// PostgreSQL, also while `vyuha start` owns it.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/db/process-info';
import { freePort, postmasterPid, runCli, waitForRunning, within, type CliProcess } from './helpers/cli-process';
import { freshDatabase, type TestDatabase } from './helpers/db';

/** How long one `vyuha outbox` may take (it starts the embedded database when nothing runs). */
const OUTBOX_TIMEOUT_MS = 60_000;

async function outbox(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const cli = runCli(['outbox', ...args], { env });
  try {
    const { code } = await within(cli.exited, { timeoutMs: OUTBOX_TIMEOUT_MS, what: `vyuha outbox ${args.join(' ')}`, cli });
    return { code, output: cli.output() };
  } finally {
    cli.child.kill('SIGKILL');
  }
}

describe('vyuha outbox on DATABASE_URL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
    const rows: Array<[string, 'email' | 'sms', string, string | null, string]> = [
      ['2026-03-02T10:00:00Z', 'email', 'asha@example.in', 'Verify your email address for Vyuha', 'Hello,\n\nPlease confirm:\n\nhttp://localhost:8080/v1/auth/verify?ticket=verifyEmail%3Aabc&type=emailVerify\n\nBye'],
      ['2026-03-02T10:01:00Z', 'sms', '+919876543210', null, 'Your Vyuha sign-in code is 481516. It expires in 5 minutes.'],
      ['2026-03-02T10:02:00Z', 'email', 'ravi@example.in', 'Reset your Vyuha password', 'Open http://localhost:8080/v1/auth/verify?ticket=passwordReset%3Adef&type=passwordReset now'],
    ];
    for (const [at, channel, recipient, subject, body] of rows) {
      await db.pool.query('INSERT INTO auth.outbox (created_at, channel, recipient, subject, body) VALUES ($1, $2, $3, $4, $5)', [at, channel, recipient, subject, body]);
    }
  });
  afterAll(() => db.close());

  it('prints the latest messages oldest first, with IST times, bodies and links', async () => {
    const { code, output } = await outbox([], { DATABASE_URL: db.url });
    expect(code).toBe(0);
    expect(output).toContain('2026-03-02 15:30:00 IST  e-mail to asha@example.in  "Verify your email address for Vyuha"\n    Hello,\n');
    expect(output).toContain('  link: http://localhost:8080/v1/auth/verify?ticket=verifyEmail%3Aabc&type=emailVerify\n');
    expect(output).toContain('2026-03-02 15:31:00 IST  SMS to +919876543210\n    Your Vyuha sign-in code is 481516.');
    expect(output.indexOf('asha@example.in')).toBeLessThan(output.indexOf('ravi@example.in'));
  });

  it('--to keeps one recipient (any case), --limit the newest N', async () => {
    const asha = await outbox(['--to', 'ASHA@example.in'], { DATABASE_URL: db.url });
    expect(asha.output).toContain('asha@example.in');
    expect(asha.output).not.toContain('ravi@example.in');
    expect(asha.output).not.toContain('481516');
    const newest = await outbox(['--limit', '1'], { DATABASE_URL: db.url });
    expect(newest.output).toContain('ravi@example.in');
    expect(newest.output).not.toContain('asha@example.in');
    const nobody = await outbox(['--to', 'nobody@example.in'], { DATABASE_URL: db.url });
    expect(nobody).toEqual({ code: 0, output: 'No messages to nobody@example.in in the outbox.\n' });
  });

  it('refuses a bad --limit or an empty --to with exit code 2, naming the option', async () => {
    const limit = await outbox(['--limit', '0'], { DATABASE_URL: db.url });
    expect(limit.code).toBe(2);
    expect(limit.output).toContain('vyuha outbox: --limit must be a whole number from 1 to 1000, got "0"');
    const to = await outbox(['--to', ' '], { DATABASE_URL: db.url });
    expect(to.code).toBe(2);
    expect(to.output).toContain('--to needs an e-mail address or phone number');
  });
});

describe('vyuha outbox beside a running vyuha start (embedded PostgreSQL)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: CliProcess | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vyuha-outbox-'));
    await chmod(dataDir, 0o755);
    env = { DATA_DIR: dataDir, PORT: String(await freePort()), VYUHA_PG_PORT: String(await freePort()), VYUHA_DEMO_HISTORY: '0' };
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    const pid = await postmasterPid(dataDir);
    if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGQUIT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the mail of a sign-up at the README address while the server runs, and after it stopped', async () => {
    server = runCli(['start'], { env });
    const url = await waitForRunning(server);
    const email = 'newcomer@example.in';
    const signUp = await fetch(`${url}/v1/auth/signup/email-password`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(30_000),
      body: JSON.stringify({ email, password: 'first-hour-2026', options: { redirectTo: `${url}/authenticate/redirect` } }),
    });
    expect(signUp.status).toBe(200);

    // The mail may be written a moment after the answer (the server sends it in the background).
    let running = await outbox(['--to', email], env);
    for (let tries = 0; tries < 10 && !running.output.includes('link: '); tries += 1) running = await outbox(['--to', email], env);
    expect(running.code).toBe(0);
    const link = /link: (\S+)/.exec(running.output)?.[1] ?? '';
    expect(link).toContain('/v1/auth/verify?ticket=verifyEmail');
    // The server still owns its database, undisturbed.
    expect((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) })).status).toBe(200);

    server.child.kill('SIGTERM');
    // A shutdown step that is slow is named in the server's output (start.ts, stopInOrder).
    expect((await within(server.exited, { timeoutMs: 90_000, what: 'vyuha start stopping after SIGTERM', cli: server })).code).toBe(0);
    server = undefined;
    const stopped = await outbox(['--to', email], env);
    expect(stopped.code).toBe(0);
    expect(stopped.output).toContain(`link: ${link}`);
    // It started the embedded database for the read and stopped it again.
    expect(await postmasterPid(dataDir)).toBeUndefined();
  }, 300_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROLES, demoEmail } from '../../src/db/seed/demo-users';
import { totpCode, totpStep } from '../../src/auth/mfa/totp';
import { startCoreServer, type CoreServer } from './support/core-server';
import { requestFrom } from './support/source-address';

// Issue 15 item 8. What broke: with the default limits, correct sign-ins were refused after 10
// tries from one address in 5 minutes (nine demo roles, then the tenth got 429), and 11 wrong
// passwords from anyone locked the owner out. Now (default configuration, nothing raised here):
// successes never count, failures per account slow the next try down (a growing Retry-After), the
// owner signing in from an address they used before is never refused for strangers' failures,
// a correct password of an account with TOTP always reaches the second factor, and the per-address
// ceiling counts failures only and is high enough for an office behind one address.

const OFFICE = '127.0.0.1';
const WRONG = 'not the password at all';

let server: CoreServer;

beforeAll(async () => {
  server = await startCoreServer({ seeded: true });
  // Forty colleagues more, all with the demo password (the demo users' own hash).
  await server.pool.query(
    `WITH created AS (
       INSERT INTO auth.users (email, password_hash, email_verified, default_role)
       SELECT 'colleague' || n || '@office.example.in', (SELECT password_hash FROM auth.users WHERE email = $1), true, 'trial'
       FROM generate_series(1, 40) AS n RETURNING id)
     INSERT INTO auth.user_roles (user_id, role) SELECT id, 'trial' FROM created`,
    [demoEmail('trial')],
  );
});
afterAll(() => server.close());

const signIn = (from: string, email: string, password: string) => requestFrom(from, `${server.authUrl}/signin/email-password`, { body: { email, password } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A patient attacker: wrong passwords from `from`, waiting out each short Retry-After (up to 2 s),
 * until at least `attempts` tries were made and the account answers with a wait of 4 s or more.
 * Returns how many guesses were judged (401) and how many refused (429).
 */
async function guessUntilSlowed(from: string, email: string, attempts: number): Promise<{ judged: number; refused: number }> {
  let judged = 0;
  let refused = 0;
  let slowed = false;
  while (judged + refused < attempts || !slowed) {
    const answer = await signIn(from, email, WRONG);
    if (answer.status === 401) {
      judged += 1;
      continue;
    }
    expect(answer.status, answer.raw).toBe(429);
    refused += 1;
    const wait = Number(answer.headers['retry-after']);
    if (wait >= 4) slowed = true;
    else await sleep(wait * 1000);
  }
  return { judged, refused };
}

describe('an office behind one address', () => {
  it('signs in the nine demo roles and forty colleagues, typos included, without a 429', async () => {
    const emails = [...DEMO_ROLES.map((role) => demoEmail(role)), ...Array.from({ length: 40 }, (_, index) => `colleague${index + 1}@office.example.in`)];
    const statuses: number[] = [];
    const arrive = async (email: string): Promise<void> => {
      // A typo first, as people do, then the right password, a refresh and a look at the profile.
      statuses.push((await signIn(OFFICE, email, WRONG)).status);
      const right = await signIn(OFFICE, email, DEMO_PASSWORD);
      expect(right.status, `${email}: ${right.raw}`).toBe(200);
      const refreshed = await requestFrom(OFFICE, `${server.authUrl}/token`, { body: { refreshToken: right.body.session.refreshToken } });
      expect(refreshed.status).toBe(200);
      expect((await requestFrom(OFFICE, `${server.authUrl}/user`, { token: refreshed.body.accessToken })).status).toBe(200);
    };
    // Four people at a time, as in an office at the market's open.
    for (let first = 0; first < emails.length; first += 4) await Promise.all(emails.slice(first, first + 4).map(arrive));
    // 49 people x 4 requests within a minute: more than the old global limit of 100 a minute.
    expect(statuses).toEqual(emails.map(() => 401));
  }, 120_000);

  it('never counts successes: one account signs in twenty times in a row', async () => {
    for (let index = 0; index < 20; index += 1) expect((await signIn(OFFICE, demoEmail('demo'), DEMO_PASSWORD)).status).toBe(200);
  });
});

describe("strangers' failures", () => {
  it('do not lock the owner out: 12 wrong passwords from another address, then the owner signs in', async () => {
    const owner = demoEmail('basic');
    expect((await signIn(OFFICE, owner, DEMO_PASSWORD)).status).toBe(200);
    const attacker = '127.0.0.2';
    const attack = await guessUntilSlowed(attacker, owner, 12);
    // Five judged at once, then waits of 1 and 2 s were honoured: eight wrong passwords judged.
    expect(attack.judged).toBe(8);
    expect(attack.judged + attack.refused).toBeGreaterThanOrEqual(12);
    const stillSlowed = await signIn(attacker, owner, DEMO_PASSWORD);
    expect(stillSlowed.status).toBe(429);
    expect(Number(stillSlowed.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    // The owner, from the address they signed in from before, is not refused.
    const ownerAgain = await signIn(OFFICE, owner, DEMO_PASSWORD);
    expect(ownerAgain.status, ownerAgain.raw).toBe(200);
  });

  it('let a correct password with MFA through, even from an address never used before', async () => {
    const owner = demoEmail('advanced');
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    await server.pool.query("UPDATE auth.users SET totp_secret = $2, active_mfa_type = 'totp' WHERE email = $1", [owner, secret]);
    await guessUntilSlowed('127.0.0.3', owner, 12);
    expect((await signIn('127.0.0.3', owner, WRONG)).status).toBe(429);
    const traveller = '127.0.0.4';
    const password = await signIn(traveller, owner, DEMO_PASSWORD);
    expect(password.status, password.raw).toBe(200);
    const ticket = password.body.mfa.ticket as string;
    const code = totpCode({ secret, step: totpStep(Date.now()) });
    const session = await requestFrom(traveller, `${server.authUrl}/signin/mfa/totp`, { body: { ticket, otp: code } });
    expect(session.status, session.raw).toBe(200);
    expect(session.body.session.user.email).toBe(owner);
  });

  it('make a newcomer without MFA wait, with the wait in Retry-After (the documented trade-off)', async () => {
    const owner = demoEmail('backtest');
    await guessUntilSlowed('127.0.0.7', owner, 8);
    const newcomer = await signIn('127.0.0.8', owner, DEMO_PASSWORD);
    expect(newcomer.status).toBe(429);
    expect(newcomer.body.error).toBe('too-many-requests');
    const retryAfter = Number(newcomer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });
});

describe('an attacker', () => {
  it('is slowed down: growing waits, a handful of guesses judged in eight seconds', async () => {
    const attacker = '127.0.0.5';
    const target = demoEmail('support');
    const started = performance.now();
    let judged = 0;
    let refused = 0;
    const waits: number[] = [];
    let freeMs = 0;
    while (performance.now() - started < 8_000) {
      const answer = await signIn(attacker, target, WRONG);
      await sleep(40);
      if (answer.status === 401) {
        judged += 1;
        // The time the server takes to judge a guess: what an unthrottled attacker would pay.
        if (judged <= 5) freeMs += answer.elapsedMs;
      } else {
        expect(answer.status).toBe(429);
        const wait = Number(answer.headers['retry-after']);
        if (refused === 0 || wait > (waits.at(-1) ?? 0)) waits.push(wait);
        refused += 1;
      }
    }
    const unthrottledPerSecond = 5 / (freeMs / 1000); // one connection, one guess at a time
    console.log(`attacker: ${judged} guesses judged in 8 s (unthrottled rate ${unthrottledPerSecond.toFixed(1)}/s would be ~${Math.round(unthrottledPerSecond * 8)}), ${refused} refused; Retry-After seen: ${waits.join(', ')} s`);
    // 5 free, then waits of 1, 2 and 4 s: at most 9 guesses judged in 8 s.
    expect(judged).toBeGreaterThanOrEqual(5);
    expect(judged).toBeLessThanOrEqual(9);
    expect(refused).toBeGreaterThan(0);
    expect(waits[0]).toBe(1);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(2);
  });

  it('meets the per-address ceiling after 100 failures, while a known colleague there still signs in', async () => {
    const attacker = '127.0.0.6';
    expect((await signIn(attacker, 'colleague40@office.example.in', DEMO_PASSWORD)).status).toBe(200);
    let failures = 0;
    // Twenty made-up accounts x 5 free failures each = the ceiling of 100 failures per 5 minutes.
    for (let account = 0; account < 20; account += 1) {
      for (let guess = 0; guess < 5; guess += 1) {
        const answer = await signIn(attacker, `nobody${account}@elsewhere.example.in`, WRONG);
        expect(answer.status).toBe(401);
        failures += 1;
      }
    }
    expect(failures).toBe(100);
    const next = await signIn(attacker, 'fresh-target@elsewhere.example.in', WRONG);
    expect(next.status).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(1);
    expect((await signIn(attacker, 'colleague40@office.example.in', DEMO_PASSWORD)).status).toBe(200);
  });
});

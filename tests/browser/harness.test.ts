// The harness checks itself: the console-error collector sees what it must, and mail sent by the
// server arrives through real SMTP in the inbox the tests read.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConsoleErrors, linkIn, mails, url, useBrowser, waitForMail } from './browser';

describe('console-error collector', () => {
  const session = useBrowser();

  it('records console errors and uncaught page errors, and allow() lets a provoked one through', async () => {
    // A context of its own: the errors provoked here must not fail this test through useBrowser's collector.
    const context = await session().browser.newContext();
    try {
      const collector = new ConsoleErrors();
      collector.watch(context);
      const page = await context.newPage();
      await page.goto(url('/version.json'));
      await page.evaluate(() => {
        console.error('provoked console error');
        console.warn('a warning is not an error');
        setTimeout(() => { throw new Error('provoked uncaught error'); }, 0);
      });
      await expect.poll(() => collector.problems.length).toBe(2);
      expect(collector.problems.map((problem) => problem.kind).sort()).toEqual(['console.error', 'pageerror']);
      expect(() => collector.assertNone()).toThrow(/2 console error\(s\) or page error\(s\)/);
      collector.allow(/provoked/);
      expect(collector.unexpected()).toEqual([]);
      expect(() => collector.assertNone()).not.toThrow();
    } finally {
      await context.close();
    }
  });
});

describe('mail inbox', () => {
  it('a sign-up mails its verification link through the SMTP server on loopback', async () => {
    const email = `browser-${randomBytes(4).toString('hex')}@example.com`;
    const response = await fetch(url('/v1/auth/signup/email-password'), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a-long-enough-password' }),
    });
    expect(response.status).toBe(200);
    const mail = await waitForMail(email);
    expect(mail.to).toBe(email);
    expect(mail.subject).not.toBe('');
    expect(linkIn(mail).origin).toBe(new URL(url('/')).origin);
    expect(await mails(email)).toHaveLength(1);
  });
});

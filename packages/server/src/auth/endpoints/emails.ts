import type { AuthContext } from '../context';

// The mails the core sends, and `inBackground` for work that must not make an answer slower for
// a real account than for a made-up one.

/**
 * Work whose duration would reveal that an account exists (creating a ticket, talking to SMTP)
 * runs after the answer: known and unknown addresses get their answer equally fast. It starts on
 * the next turn of the event loop, once the answer is written, so it does not even compete with
 * sending it.
 */
export function inBackground(context: AuthContext, what: string, work: () => Promise<void>): void {
  setImmediate(() => {
    work().catch((error: unknown) => context.log.error({ err: error }, `auth: ${what} failed`));
  });
}

/** Creates a verifyEmail ticket and mails the /verify link (type emailVerify). */
export async function sendVerificationEmail(context: AuthContext, options: { userId: string; email: string; displayName?: string; redirectTo: string }): Promise<void> {
  const ticket = await context.tickets.create(options.userId, { type: 'verifyEmail' });
  await context.mailer.sendTemplate({
    template: 'email-verify',
    to: options.email,
    userId: options.userId,
    ...(options.displayName ? { displayName: options.displayName } : {}),
    link: context.links.verifyLink({ ticket, type: 'emailVerify', redirectTo: options.redirectTo }),
  });
}

/** Creates a passwordlessEmail ticket and mails the magic link (type signinPasswordless). */
export async function sendMagicLink(context: AuthContext, options: { userId: string; email: string; displayName?: string; redirectTo: string }): Promise<void> {
  const ticket = await context.tickets.create(options.userId, { type: 'passwordlessEmail' });
  await context.mailer.sendTemplate({
    template: 'signin-passwordless',
    to: options.email,
    userId: options.userId,
    ...(options.displayName ? { displayName: options.displayName } : {}),
    link: context.links.verifyLink({ ticket, type: 'signinPasswordless', redirectTo: options.redirectTo }),
  });
}

/**
 * Tells the owner of an address that someone tried to sign up with it (instead of telling the
 * one who tried): a link to the web app's forgot-password page, in case it was the owner.
 */
export async function sendSignUpAttemptNotice(context: AuthContext, options: { userId: string; email: string }): Promise<void> {
  const user = await context.users.get(options.userId);
  await context.mailer.sendTemplate({
    template: 'signup-existing-account',
    to: options.email,
    userId: options.userId,
    ...(user?.displayName ? { displayName: user.displayName } : {}),
    link: `${context.config.clientUrl}/authenticate/forgot-password`,
  });
}

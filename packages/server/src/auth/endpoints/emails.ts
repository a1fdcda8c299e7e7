import type { AuthContext } from '../context';

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

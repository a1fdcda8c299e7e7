import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { bodyObject, optionalObject, optionalString, replyOk, requiredEmail, requiredString } from '../mfa/request-fields';
import { inBackground, sendMagicLink as mailMagicLink } from '../endpoints/emails';
import { checkSignUpOptions, redeemPendingCode, savePendingCode, savePendingMagicLink } from '../pending-signups';
import type { AuthRouteModule } from '../routes';
import { emailAccount } from '../signin-throttle';
import { issueOneTimeCode, redeemOneTimeCode } from '../sms/otp-store';
import { readPasswordlessSettings, type PasswordlessSettings } from './passwordless-settings';

// Passwordless e-mail: a magic link (its ticket is redeemed by the core's GET /verify, type
// signinPasswordless) and an e-mailed 6-digit code. Both always answer "OK" at once, the same
// bytes for a known, an unknown or a disabled address: the ticket or code and the mail are made
// after the answer. An unknown address gets no account until its link or code is used
// (pending-signups.ts); its sign-up options are checked up front, for every address alike.

/** The passwordless e-mail route module: POST /signin/passwordless/email, /signin/otp/email, /signin/otp/email/verify. */
export function createPasswordlessRouteModule(given?: PasswordlessSettings): AuthRouteModule {
  return {
    name: 'passwordless-email',
    register(app: FastifyInstance, context: AuthContext) {
      // Settings default to the environment, read at registration.
      const settings = given ?? readPasswordlessSettings(process.env);
      app.post('/signin/passwordless/email', async (request, reply) => {
        if (!settings.magicLinkEnabled) throw new AuthError('disabled-endpoint');
        await sendMagicLink({ request, context });
        return replyOk(reply);
      });
      app.post('/signin/otp/email', async (request, reply) => {
        if (!settings.emailOtpEnabled) throw new AuthError('disabled-endpoint');
        await sendCode({ request, context, settings });
        return replyOk(reply);
      });
      app.post('/signin/otp/email/verify', async (request) => {
        if (!settings.emailOtpEnabled) throw new AuthError('disabled-endpoint');
        return { session: await signInWithCode({ request, context }) };
      });
    },
  };
}

/** The request's e-mail, sign-up options (checked as a sign-up would) and redirect. */
function readRequest(context: AuthContext, request: FastifyRequest): { email: string; options: Record<string, unknown>; redirectTo: string } {
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const options = optionalObject(body, 'options') ?? {};
  // A bad redirect or option is the caller's mistake, not a fact about the account: safe to report.
  const redirectTo = context.links.checkRedirect(optionalString(options, 'redirectTo'));
  checkSignUpOptions(context, options);
  return { email, options, redirectTo };
}

async function sendMagicLink(input: { request: FastifyRequest; context: AuthContext }): Promise<void> {
  const { request, context } = input;
  const { email, options, redirectTo } = readRequest(context, request);
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  inBackground(context, 'magic link', async () => {
    const user = await context.users.findByEmail(email);
    if (user && !user.disabled) {
      // The core's GET /verify (type signinPasswordless) redeems the ticket and starts the session.
      await mailMagicLink(context, { userId: user.id, email, redirectTo });
      await context.audit.record({ action: 'auth.magic_link_sent', entityId: user.id, request });
    } else if (!user && !context.config.disableSignup) {
      const ticket = await savePendingMagicLink(context, { email, options });
      await context.mailer.sendTemplate({ template: 'signin-passwordless', to: email, link: context.links.verifyLink({ ticket, type: 'signinPasswordless', redirectTo }) });
      await context.audit.record({ action: 'auth.magic_link_sent', details: { pendingSignUp: true }, request });
    } else {
      await context.audit.record({ action: 'auth.magic_link_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
    }
  });
}

async function sendCode(input: { request: FastifyRequest; context: AuthContext; settings: PasswordlessSettings }): Promise<void> {
  const { request, context, settings } = input;
  const { email, options } = readRequest(context, request);
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  inBackground(context, 'e-mailed sign-in code', async () => {
    const user = await context.users.findByEmail(email);
    if (user && !user.disabled) {
      const code = await issueOneTimeCode(context, { userId: user.id, method: 'email', expiresInSeconds: settings.otpExpiresInSeconds });
      await context.mailer.sendTemplate({ template: 'signin-otp', to: email, userId: user.id, code });
      await context.audit.record({ action: 'auth.otp.email_sent', entityId: user.id, request });
    } else if (!user && !context.config.disableSignup) {
      const code = await savePendingCode(context, { channel: 'email-otp', identity: email, options, expiresInSeconds: settings.otpExpiresInSeconds });
      await context.mailer.sendTemplate({ template: 'signin-otp', to: email, code });
      await context.audit.record({ action: 'auth.otp.email_sent', details: { pendingSignUp: true }, request });
    } else {
      await context.audit.record({ action: 'auth.otp.email_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
    }
  });
}

async function signInWithCode(input: { request: FastifyRequest; context: AuthContext }): Promise<unknown> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const otp = requiredString(body, 'otp');
  const attempt = await context.signInThrottle.begin(request, { account: emailAccount(email) });
  const user = await context.users.findByEmail(email);
  let userId: string | undefined;
  let refusal: string | undefined;
  if (user) {
    refusal = await redeemOneTimeCode(context, { userId: user.id, method: 'email', code: otp });
    if (refusal === undefined) userId = user.id;
  } else {
    const pending = await redeemPendingCode(context, { channel: 'email-otp', identity: email, code: otp });
    if ('userId' in pending) userId = pending.userId;
    else refusal = pending.refusal;
  }
  if (userId === undefined) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.signin_failed', entityId: user?.id ?? null, details: { method: 'email-otp', reason: refusal ?? 'no-code' }, request });
    throw new AuthError('invalid-otp');
  }
  await attempt.succeeded();
  if (!user) await context.audit.record({ action: 'auth.signup', actorUserId: userId, entityId: userId, details: { method: 'email-otp' }, request });
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'email-otp' }, request });
  return session;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { bodyObject, optionalObject, optionalString, replyOk, requiredEmail, requiredString } from '../mfa/request-fields';
import { sendMagicLink as mailMagicLink } from '../endpoints/emails';
import type { AuthRouteModule } from '../routes';
import { issueOneTimeCode, redeemOneTimeCode } from '../sms/otp-store';
import { isTakenIdentity, signUpFields } from '../sms/sign-up-fields';
import { readPasswordlessSettings, type PasswordlessSettings } from './passwordless-settings';

// Passwordless e-mail: a magic link (its ticket is redeemed by the core's GET /verify, type
// signinPasswordless) and an e-mailed 6-digit code. Both always answer "OK" so that nobody can
// learn which addresses have accounts.

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

async function sendMagicLink(input: { request: FastifyRequest; context: AuthContext }): Promise<void> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const options = optionalObject(body, 'options');
  // A bad redirect is the caller's mistake, not a fact about the account: safe to report.
  const redirectTo = context.links.checkRedirect(options === undefined ? undefined : optionalString(options, 'redirectTo'));
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  const user = await findOrCreateByEmail({ context, email, options });
  if (user === undefined || user.disabled) {
    await context.audit.record({ action: 'auth.magic_link_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
    return;
  }
  // The core's GET /verify (type signinPasswordless) redeems the ticket and starts the session.
  await mailMagicLink(context, { userId: user.id, email, redirectTo });
  await context.audit.record({ action: 'auth.magic_link_sent', entityId: user.id, request });
}

async function sendCode(input: { request: FastifyRequest; context: AuthContext; settings: PasswordlessSettings }): Promise<void> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const options = optionalObject(body, 'options');
  await context.rateLimiter.hit(request, { bucket: 'email', account: email });
  const user = await findOrCreateByEmail({ context, email, options });
  if (user === undefined || user.disabled) {
    await context.audit.record({ action: 'auth.otp.email_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
    return;
  }
  const code = await issueOneTimeCode(context, { userId: user.id, method: 'email', expiresInSeconds: input.settings.otpExpiresInSeconds });
  await context.mailer.sendTemplate({ template: 'signin-otp', to: email, userId: user.id, code });
  await context.audit.record({ action: 'auth.otp.email_sent', entityId: user.id, request });
}

async function signInWithCode(input: { request: FastifyRequest; context: AuthContext }): Promise<unknown> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const otp = requiredString(body, 'otp');
  await context.rateLimiter.hit(request, { bucket: 'bruteForce', account: email });
  const user = await context.users.findByEmail(email);
  const refusal = user ? await redeemOneTimeCode(context, { userId: user.id, method: 'email', code: otp }) : 'no-code';
  if (!user || refusal !== undefined) {
    await context.audit.record({ action: 'auth.signin_failed', entityId: user?.id ?? null, details: { method: 'email-otp', reason: refusal }, request });
    throw new AuthError('invalid-otp');
  }
  const session = await context.issueSession(user.id);
  await context.audit.record({ action: 'auth.signin', actorUserId: user.id, entityId: user.id, details: { method: 'email-otp' }, request });
  return session;
}

async function findOrCreateByEmail(input: { context: AuthContext; email: string; options: Record<string, unknown> | undefined }): Promise<{ id: string; disabled: boolean } | undefined> {
  const { context, email } = input;
  const existing = await context.users.findByEmail(email);
  if (existing || context.config.disableSignup) return existing;
  try {
    const id = await context.users.create({ email, ...signUpFields(input.options) });
    return { id, disabled: false };
  } catch (error) {
    if (isTakenIdentity(error)) return context.users.findByEmail(email);
    throw error;
  }
}

import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import type { AuthRouteModule } from '../routes';
import { emailAccount } from '../signin-throttle';
import { answerTakenSignUp, writeSignUp } from '../sign-up-writes';
import { bodyObject, readSignUpOptions, requiredEmail, requiredString, type SignUpOptions } from '../validation';
import { inBackground, sendVerificationEmail } from './emails';

/**
 * POST /signup/email-password and POST /signin/email-password.
 *
 * Sign-up does not reveal accounts while e-mail verification is required: a taken address gets
 * the bytes a new one gets (`{"session":null}`) after the same argon2 hash and the same writes
 * (sign-up-writes.ts), and its owner is mailed instead; mail work runs after the answer either
 * way. Without verification a new address is signed in at once, so a taken one must still be
 * told (409 email-already-in-use).
 * Sign-in goes through the sign-in throttle: only failures count (signin-throttle.ts).
 */
export const emailPasswordRoutes: AuthRouteModule = {
  name: 'email-password',
  register(app, context) {
    app.post('/signup/email-password', async (request) => signUp(context, request));
    app.post('/signin/email-password', async (request) => signIn(context, request));
  },
};

/** Locale policy shared by sign-up style endpoints. */
export function checkLocale(context: AuthContext, options: SignUpOptions): void {
  if (options.locale !== undefined && !context.config.allowedLocales.includes(options.locale)) throw new AuthError('locale-not-allowed');
}

async function signUp(context: AuthContext, request: FastifyRequest): Promise<{ session: unknown }> {
  if (context.config.disableSignup) throw new AuthError('signup-disabled');
  const body = bodyObject(request.body);
  const email = requiredEmail(body, 'email');
  const password = context.passwords.check(body.password);
  const options = readSignUpOptions(body);
  checkLocale(context, options);
  const redirectTo = context.links.checkRedirect(options.redirectTo);
  context.users.signUpRoles(options);
  await context.rateLimiter.hit(request, { bucket: 'signups' });
  // Hashed whether or not the address is taken: the answer takes the same time either way.
  const passwordHash = await context.passwords.hash(password);
  const existing = await context.users.findByEmail(email);
  if (existing && !context.config.emailVerifiedRequired) throw new AuthError('email-already-in-use');
  const written = await writeSignUp(context, { request, create: { email, passwordHash, ...options }, existing, method: 'email-password' });
  if ('taken' in written) return answerTakenSignUp(context, { email, existing: written.taken });
  const { userId } = written;
  inBackground(context, 'verification e-mail', () => sendVerificationEmail(context, { userId, email, ...(options.displayName ? { displayName: options.displayName } : {}), redirectTo }));
  if (context.config.emailVerifiedRequired) return { session: null };
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'email-password', signup: true }, request });
  return { session };
}

async function signIn(context: AuthContext, request: FastifyRequest): Promise<unknown> {
  const body = bodyObject(request.body);
  const email = requiredEmail(body, 'email');
  const password = requiredString(body, 'password');
  const found = await context.pool.query<{ id: string; password_hash: string | null; disabled: boolean; email_verified: boolean; active_mfa_type: string | null }>(
    'SELECT id, password_hash, disabled, email_verified, active_mfa_type FROM auth.users WHERE email = $1', [email]);
  const user = found.rows[0];
  // With TOTP on, a right password only reaches the second factor: count per address, so
  // strangers' failures never keep the owner from it.
  const attempt = await context.signInThrottle.begin(request, { account: emailAccount(email), perSource: user?.active_mfa_type === 'totp' });
  // Always verify (a dummy hash when there is no user): same work, same time, whether or not the account exists.
  const matches = await context.passwords.verify(user?.password_hash ?? null, password);
  await (user && matches ? attempt.succeeded() : attempt.failed());
  const fail = async (code: 'invalid-email-password' | 'disabled-user' | 'unverified-user'): Promise<never> => {
    await context.audit.record({ action: 'auth.signin_failed', entityId: user?.id ?? null, details: { method: 'email-password', reason: code, email }, request });
    throw new AuthError(code);
  };
  if (!user || !matches) return fail('invalid-email-password');
  if (user.disabled) return fail('disabled-user');
  if (context.config.emailVerifiedRequired && !user.email_verified) return fail('unverified-user');
  if (user.active_mfa_type === 'totp') {
    const ticket = await context.tickets.create(user.id, { type: 'mfaTotp' });
    await context.audit.record({ action: 'auth.signin.mfa_required', actorUserId: user.id, entityId: user.id, details: { method: 'email-password' }, request });
    return { session: null, mfa: { ticket } };
  }
  const session = await context.issueSession(user.id);
  await context.audit.record({ action: 'auth.signin', actorUserId: user.id, entityId: user.id, details: { method: 'email-password' }, request });
  return { session, mfa: null };
}

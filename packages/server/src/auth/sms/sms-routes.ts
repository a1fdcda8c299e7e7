import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { bodyObject, optionalObject, replyOk, requiredPhoneNumber, requiredString } from '../mfa/request-fields';
import type { AuthRouteModule } from '../routes';
import { issueOneTimeCode, redeemOneTimeCode } from './otp-store';
import { readSmsSettings, type SmsSettings } from './sms-settings';
import { isTakenIdentity, signUpFields } from './sign-up-fields';

// SMS passwordless sign-in: a 6-digit code texted to the phone, exchanged for a session.

/** The SMS route module: POST /signin/passwordless/sms and /signin/passwordless/sms/otp; settings default to the environment, read at registration. */
export function createSmsRouteModule(given?: SmsSettings): AuthRouteModule {
  return {
    name: 'sms',
    register(app: FastifyInstance, context: AuthContext) {
      const settings = given ?? readSmsSettings(process.env);
      app.post('/signin/passwordless/sms', async (request, reply) => {
        if (!settings.enabled) throw new AuthError('disabled-endpoint');
        await sendCode({ request, context, settings });
        return replyOk(reply);
      });
      app.post('/signin/passwordless/sms/otp', async (request) => {
        if (!settings.enabled) throw new AuthError('disabled-endpoint');
        return signIn({ request, context });
      });
    },
  };
}

async function sendCode(input: { request: FastifyRequest; context: AuthContext; settings: SmsSettings }): Promise<void> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const phoneNumber = requiredPhoneNumber(body);
  const options = optionalObject(body, 'options');
  await context.rateLimiter.hit(request, { bucket: 'sms', account: phoneNumber });
  const user = await findOrCreateByPhone({ context, phoneNumber, options });
  // Unknown with sign-up closed, or disabled: the same "OK", nothing sent (no enumeration).
  if (user === undefined || user.disabled) {
    await context.audit.record({ action: 'auth.otp.sms_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
    return;
  }
  const code = await issueOneTimeCode(context, { userId: user.id, method: 'sms', expiresInSeconds: input.settings.otpExpiresInSeconds });
  const minutes = Math.max(1, Math.round(input.settings.otpExpiresInSeconds / 60));
  try {
    await context.sms.send({ to: phoneNumber, body: `Your Vyuha sign-in code is ${code}. It expires in ${minutes} minutes. Never share it.`, userId: user.id });
  } catch (error) {
    context.log.error({ err: error }, 'sms: the sign-in code could not be sent');
    throw new AuthError('cannot-send-sms');
  }
  await context.audit.record({ action: 'auth.otp.sms_sent', entityId: user.id, request });
}

async function signIn(input: { request: FastifyRequest; context: AuthContext }): Promise<unknown> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const phoneNumber = requiredPhoneNumber(body);
  const otp = requiredString(body, 'otp');
  await context.rateLimiter.hit(request, { bucket: 'bruteForce', account: phoneNumber });
  const found = await context.pool.query<{ id: string; active_mfa_type: string | null }>('SELECT id, active_mfa_type FROM auth.users WHERE phone_number = $1', [phoneNumber]);
  const user = found.rows[0];
  const refusal = user ? await redeemOneTimeCode(context, { userId: user.id, method: 'sms', code: otp }) : 'no-code';
  if (!user || refusal !== undefined) {
    await context.audit.record({ action: 'auth.signin_failed', entityId: user?.id ?? null, details: { method: 'sms', reason: refusal }, request });
    throw new AuthError('invalid-otp');
  }
  if (user.active_mfa_type === 'totp') {
    // The code proves the phone; the second factor is still owed.
    const ticket = await context.tickets.create(user.id, { type: 'mfaTotp' });
    await context.audit.record({ action: 'auth.signin_mfa_required', entityId: user.id, details: { method: 'sms' }, request });
    return { session: null, mfa: { ticket } };
  }
  const session = await context.issueSession(user.id);
  await context.audit.record({ action: 'auth.signin', actorUserId: user.id, entityId: user.id, details: { method: 'sms' }, request });
  return { session, mfa: null };
}

async function findOrCreateByPhone(input: { context: AuthContext; phoneNumber: string; options: Record<string, unknown> | undefined }): Promise<{ id: string; disabled: boolean } | undefined> {
  const { context, phoneNumber } = input;
  const lookup = async () => (await context.pool.query<{ id: string; disabled: boolean }>('SELECT id, disabled FROM auth.users WHERE phone_number = $1', [phoneNumber])).rows[0];
  const existing = await lookup();
  if (existing || context.config.disableSignup) return existing;
  try {
    const id = await context.users.create({ phoneNumber, ...signUpFields(input.options) });
    return { id, disabled: false };
  } catch (error) {
    // Two first requests for one number at once: the loser finds the winner's user.
    if (isTakenIdentity(error)) return lookup();
    throw error;
  }
}

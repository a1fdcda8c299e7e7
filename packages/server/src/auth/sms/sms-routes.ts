import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { bodyObject, optionalObject, replyOk, requiredPhoneNumber, requiredString } from '../mfa/request-fields';
import { inBackground } from '../endpoints/emails';
import { checkSignUpOptions, redeemPendingCode, savePendingCode } from '../pending-signups';
import type { AuthRouteModule } from '../routes';
import { issueOneTimeCode, redeemOneTimeCode } from './otp-store';
import { readSmsSettings, type SmsSettings } from './sms-settings';

// SMS passwordless sign-in: a 6-digit code texted to the phone, exchanged for a session. An
// unknown number gets no account until its code is exchanged (pending-signups.ts).

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
  const { request, context, settings } = input;
  const body = bodyObject(request.body);
  const phoneNumber = requiredPhoneNumber(body);
  const options = optionalObject(body, 'options') ?? {};
  checkSignUpOptions(context, options);
  await context.rateLimiter.hit(request, { bucket: 'sms', account: phoneNumber });
  // Known, unknown (no account until the code is used) or disabled: the same "OK" at once; the
  // code and the message are made after the answer (a failed send is logged, kept in the outbox).
  inBackground(context, 'texted sign-in code', async () => {
    const user = await findByPhone(context, phoneNumber);
    let code: string;
    if (user && !user.disabled) {
      code = await issueOneTimeCode(context, { userId: user.id, method: 'sms', expiresInSeconds: settings.otpExpiresInSeconds });
    } else if (!user && !context.config.disableSignup) {
      code = await savePendingCode(context, { channel: 'sms-otp', identity: phoneNumber, options, expiresInSeconds: settings.otpExpiresInSeconds });
    } else {
      await context.audit.record({ action: 'auth.otp.sms_refused', entityId: user?.id ?? null, details: { reason: user ? 'disabled-user' : 'signup-disabled' }, request });
      return;
    }
    const minutes = Math.max(1, Math.round(settings.otpExpiresInSeconds / 60));
    await context.sms.send({ to: phoneNumber, body: `Your Vyuha sign-in code is ${code}. It expires in ${minutes} minutes. Never share it.`, ...(user ? { userId: user.id } : {}) });
    await context.audit.record({ action: 'auth.otp.sms_sent', entityId: user?.id ?? null, details: user ? {} : { pendingSignUp: true }, request });
  });
}

async function signIn(input: { request: FastifyRequest; context: AuthContext }): Promise<unknown> {
  const { request, context } = input;
  const body = bodyObject(request.body);
  const phoneNumber = requiredPhoneNumber(body);
  const otp = requiredString(body, 'otp');
  const found = await context.pool.query<{ id: string; active_mfa_type: string | null }>('SELECT id, active_mfa_type FROM auth.users WHERE phone_number = $1', [phoneNumber]);
  const user = found.rows[0];
  const attempt = await context.signInThrottle.begin(request, { account: `phone:${phoneNumber}`, perSource: user?.active_mfa_type === 'totp' });
  let userId: string | undefined;
  let refusal: string | undefined;
  if (user) {
    refusal = await redeemOneTimeCode(context, { userId: user.id, method: 'sms', code: otp });
    if (refusal === undefined) userId = user.id;
  } else {
    const pending = await redeemPendingCode(context, { channel: 'sms-otp', identity: phoneNumber, code: otp });
    if ('userId' in pending) userId = pending.userId;
    else refusal = pending.refusal;
  }
  if (userId === undefined) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.signin_failed', entityId: user?.id ?? null, details: { method: 'sms', reason: refusal ?? 'no-code' }, request });
    throw new AuthError('invalid-otp');
  }
  await attempt.succeeded();
  if (!user) await context.audit.record({ action: 'auth.signup', actorUserId: userId, entityId: userId, details: { method: 'sms' }, request });
  if (user?.active_mfa_type === 'totp') {
    // The code proves the phone; the second factor is still owed.
    const ticket = await context.tickets.create(userId, { type: 'mfaTotp' });
    await context.audit.record({ action: 'auth.signin_mfa_required', entityId: userId, details: { method: 'sms' }, request });
    return { session: null, mfa: { ticket } };
  }
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'sms' }, request });
  return { session, mfa: null };
}

async function findByPhone(context: AuthContext, phoneNumber: string): Promise<{ id: string; disabled: boolean } | undefined> {
  return (await context.pool.query<{ id: string; disabled: boolean }>('SELECT id, disabled FROM auth.users WHERE phone_number = $1', [phoneNumber])).rows[0];
}

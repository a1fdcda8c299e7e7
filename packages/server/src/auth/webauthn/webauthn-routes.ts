import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../context';
import { proveFactorEnrolment, refusePatSession } from '../credential-proof';
import { AuthError } from '../errors';
import { bodyObject, optionalObject, optionalString, requiredEmail } from '../mfa/request-fields';
import { inBackground, sendVerificationEmail } from '../endpoints/emails';
import type { AuthRouteModule } from '../routes';
import { userAccount } from '../signin-throttle';
import { answerTakenSignUp, writeSignUp } from '../sign-up-writes';
import { signUpFields } from '../sms/sign-up-fields';
import { answeredChallenge, startAssertion, startRegistration, storeKey, verifyAssertion, verifyRegistration } from './ceremonies';
import { requireElevationForKeyChange } from './elevation';
import { readWebauthnSettings, type WebauthnSettings } from './webauthn-config';

// Security keys (hasura-auth's WebAuthn endpoints): sign up, sign in, add a key to an account,
// and elevate a session. Each pair is "options" (challenge stored) then "verify" (challenge used).
// A session signed in with a PAT may neither add a key nor elevate (403 forbidden-pat-session).
// Adding a key needs fresh proof (credential-proof.ts), checked when the challenge is handed out.
// Sign-up answers a taken address as a new one while verification is required (sign-up-writes.ts).

/** The WebAuthn route module; settings default to the AUTH_WEBAUTHN_* variables, read at registration. */
export function createWebauthnRouteModule(given?: WebauthnSettings): AuthRouteModule {
  return {
    name: 'webauthn',
    register(app: FastifyInstance, context: AuthContext) {
      const settings = given ?? readWebauthnSettings(process.env);
      const guard = async () => {
        if (!settings.enabled) throw new AuthError('disabled-endpoint');
      };
      const scope = { context, settings };
      app.post('/signup/webauthn', { preHandler: guard }, async (request) => signUpOptions({ ...scope, request }));
      app.post('/signup/webauthn/verify', { preHandler: guard }, async (request) => signUpVerify({ ...scope, request }));
      app.post('/signin/webauthn', { preHandler: guard }, async (request) => signInOptions({ ...scope, request }));
      app.post('/signin/webauthn/verify', { preHandler: guard }, async (request) => signInVerify({ ...scope, request }));
      app.post('/user/webauthn/add', { preHandler: guard }, async (request) => addOptions({ ...scope, request }));
      app.post('/user/webauthn/verify', { preHandler: guard }, async (request) => addVerify({ ...scope, request }));
      app.post('/elevate/webauthn', { preHandler: guard }, async (request) => elevateOptions({ ...scope, request }));
      app.post('/elevate/webauthn/verify', { preHandler: guard }, async (request) => elevateVerify({ ...scope, request }));
    },
  };
}

interface Scope {
  readonly request: FastifyRequest;
  readonly context: AuthContext;
  readonly settings: WebauthnSettings;
}

async function signUpOptions({ request, context, settings }: Scope): Promise<unknown> {
  const body = bodyObject(request.body);
  const email = requiredEmail(body);
  const options = optionalObject(body, 'options') ?? {};
  if (context.config.disableSignup) throw new AuthError('signup-disabled');
  await context.rateLimiter.hit(request, { bucket: 'signups', account: email });
  const redirectTo = optionalString(options, 'redirectTo');
  if (redirectTo !== undefined) context.links.checkRedirect(redirectTo);
  signUpFields(options); // refuse malformed options now, not after the key ceremony
  // While verification is required a taken address gets creation options like a new one (the
  // verify step mails its owner instead). Without it a new address is signed in at verify, so a
  // taken one must be told anyway: better now than after the key ceremony.
  if (!context.config.emailVerifiedRequired && (await context.users.findByEmail(email))) throw new AuthError('email-already-in-use');
  const displayName = optionalString(options, 'displayName') ?? email;
  return startRegistration(context, { settings, purpose: 'signup', userName: email, displayName, email, options });
}

/**
 * Verifies the new key and creates the user with it. For an address that has an account by now,
 * the same work is rehearsed and rolled back, nothing is created, and, while verification is
 * required, the answer is a new address's `{session: null}` and the owner is mailed (the password
 * sign-up's notice); without verification, 409.
 */
async function signUpVerify({ request, context, settings }: Scope): Promise<unknown> {
  const body = bodyObject(request.body);
  const stored = await answeredChallenge(context, { credential: body.credential, purpose: 'signup' });
  const key = await verifyRegistration({ settings, credential: body.credential, challenge: stored.challenge });
  const email = stored.email ?? '';
  const options = { ...stored.options, ...(optionalObject(body, 'options') ?? {}) };
  const nickname = optionalString(body, 'nickname');
  const redirectTo = context.links.checkRedirect(optionalString(options, 'redirectTo'));
  const existing = await context.users.findByEmail(email);
  const written = await writeSignUp(context, {
    request, existing, method: 'webauthn', create: { email, ...signUpFields(options) },
    alsoWrite: async (client, userId) => {
      await storeKey(client, { userId, key, nickname });
      await context.audit.record({ action: 'auth.security_key.add', actorUserId: userId, entityId: userId, details: { nickname: nickname ?? null }, request, client });
    },
  });
  if ('taken' in written) return answerTakenSignUp(context, { email, existing: written.taken });
  const { userId } = written;
  if (context.config.emailVerifiedRequired) {
    // Same rule as e-mail + password sign-up: no session until the address is proven; the mail
    // goes after the answer, as there.
    inBackground(context, 'verification e-mail', () => sendVerificationEmail(context, { userId, email, redirectTo }));
    return { session: null };
  }
  return { session: await context.issueSession(userId) };
}

async function signInOptions({ request, context, settings }: Scope): Promise<unknown> {
  const body = bodyObject(request.body);
  const email = optionalString(body, 'email');
  // Handing out a challenge judges nothing: only the global per-address limit applies here.
  const user = email === undefined ? undefined : await context.users.findByEmail(email.toLowerCase());
  // An unknown address gets the same kind of answer as a known one (a discoverable-key request).
  return startAssertion(context, { settings, purpose: 'signin', ...(user === undefined ? {} : { userId: user.id }) });
}

async function signInVerify({ request, context, settings }: Scope): Promise<unknown> {
  const body = bodyObject(request.body);
  const attempt = await context.signInThrottle.begin(request, {});
  const stored = await answeredChallenge(context, { credential: body.credential, purpose: 'signin' });
  let userId: string;
  try {
    userId = await verifyAssertion(context, { settings, credential: body.credential, challenge: stored.challenge, userId: stored.userId });
    await attempt.succeeded();
  } catch (error) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.signin_failed', entityId: stored.userId, details: { method: 'webauthn', reason: (error as Error).message }, request });
    throw error;
  }
  const user = await context.users.get(userId);
  if (user && context.config.emailVerifiedRequired && !user.emailVerified) {
    await context.audit.record({ action: 'auth.signin_failed', entityId: userId, details: { method: 'webauthn', reason: 'unverified-user' }, request });
    throw new AuthError('unverified-user');
  }
  const session = await context.issueSession(userId);
  await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: 'webauthn' }, request });
  return { session, mfa: null };
}

/**
 * Creation options for a new key of the signed-in user: AUTH_REQUIRE_ELEVATED_CLAIM as before
 * (elevation.ts), then fresh proof (`currentPassword`, a fresh elevation, or a sign-in at most 5
 * minutes ago). The challenge, single use, bound to this user and alive for a minute, carries the
 * proof to the verify step, which the Nhost client sends without a password.
 */
async function addOptions({ request, context, settings }: Scope): Promise<unknown> {
  const authenticated = await context.authenticateBearer(request);
  refusePatSession(authenticated);
  await requireElevationForKeyChange(context, authenticated);
  const proof = await proveFactorEnrolment(context, { request, user: authenticated, body: bodyObject(request.body) });
  const user = await context.users.get(authenticated.userId);
  if (!user) throw new AuthError('unauthenticated-user');
  const userName = user.email ?? user.phoneNumber ?? user.id;
  return startRegistration(context, {
    settings, purpose: 'add', userName, displayName: user.displayName || userName, userId: user.id, options: { proof: proof.kind },
  });
}

async function addVerify({ request, context, settings }: Scope): Promise<unknown> {
  const authenticated = await context.authenticateBearer(request);
  refusePatSession(authenticated);
  const body = bodyObject(request.body);
  const stored = await answeredChallenge(context, { credential: body.credential, purpose: 'add' });
  if (stored.userId !== authenticated.userId) throw new AuthError('unauthenticated-user', 'This challenge was issued to another user');
  const key = await verifyRegistration({ settings, credential: body.credential, challenge: stored.challenge });
  const nickname = optionalString(body, 'nickname');
  const id = await storeKey(context.pool, { userId: authenticated.userId, key, nickname });
  await context.audit.record({
    action: 'auth.security_key.add', actorUserId: authenticated.userId, entityId: authenticated.userId,
    details: { securityKeyId: id, nickname: nickname ?? null, proof: stored.options.proof ?? null }, request,
  });
  return { id, nickname: nickname ?? null };
}

async function elevateOptions({ request, context, settings }: Scope): Promise<unknown> {
  const authenticated = await context.authenticateBearer(request);
  refusePatSession(authenticated);
  const body = bodyObject(request.body);
  const email = optionalString(body, 'email');
  const user = await context.users.get(authenticated.userId);
  // The e-mail is only a cross-check (the client sends it): the token says who is elevating.
  if (email !== undefined && user?.email?.toLowerCase() !== email.toLowerCase()) throw new AuthError('unauthenticated-user', 'The e-mail is not the signed-in user\'s');
  return startAssertion(context, { settings, purpose: 'elevate', userId: authenticated.userId });
}

async function elevateVerify({ request, context, settings }: Scope): Promise<unknown> {
  const authenticated = await context.authenticateBearer(request);
  refusePatSession(authenticated);
  const body = bodyObject(request.body);
  const attempt = await context.signInThrottle.begin(request, { account: userAccount(authenticated.userId) });
  const stored = await answeredChallenge(context, { credential: body.credential, purpose: 'elevate' });
  if (stored.userId !== authenticated.userId) throw new AuthError('unauthenticated-user', 'This challenge was issued to another user');
  try {
    await verifyAssertion(context, { settings, credential: body.credential, challenge: stored.challenge, userId: authenticated.userId });
    await attempt.succeeded();
  } catch (error) {
    await attempt.failed();
    await context.audit.record({ action: 'auth.elevate_failed', actorUserId: authenticated.userId, entityId: authenticated.userId, details: { reason: (error as Error).message }, request });
    throw error;
  }
  const session = await context.issueSession(authenticated.userId, { elevated: true });
  await context.audit.record({ action: 'auth.elevate', actorUserId: authenticated.userId, entityId: authenticated.userId, details: { method: 'webauthn' }, request });
  return { session };
}

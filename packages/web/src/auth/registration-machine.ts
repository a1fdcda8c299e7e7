// The registration machine of docs/PRODUCT.md section 4:
//   incomplete -> noErrors | registering | needsEmailVerification | needsOtp | failed
//   complete   (final; its output is the new session)
// Methods: e-mail + password, security key, passwordless e-mail (magic link), passwordless SMS and
// the SMS code that follows it. A signed-in anonymous user is converted (POST /user/deanonymize,
// keeping the user id), never created anew: the REGISTER event then carries its access token.
// Inputs are checked as docs/PRODUCT.md section 5 says before anything is sent.
import { assign, fromPromise, setup } from 'xstate';
import { authApi, type ApiResult, type SessionOrMfa, type SignUpOptions } from './auth-api';
import { clientError, isValidEmail, isValidPassword, isValidPhoneNumber, STATUS_INPUT, STATUS_INTERNAL } from './auth-errors';
import type { AuthErrorPayload, AuthSession } from './auth-types';
import { createCredential as browserCreateCredential } from './webauthn';

export type RegistrationRequest =
  | { readonly method: 'email-password'; readonly email: string; readonly password: string; readonly options?: SignUpOptions }
  | { readonly method: 'security-key'; readonly email: string; readonly nickname?: string; readonly options?: SignUpOptions }
  | { readonly method: 'passwordless-email'; readonly email: string; readonly options?: SignUpOptions }
  | { readonly method: 'passwordless-sms'; readonly phoneNumber: string; readonly options?: SignUpOptions }
  /** The code texted after passwordless-sms; without a phone number the one the machine holds is used. */
  | { readonly method: 'sms-otp'; readonly phoneNumber?: string; readonly otp: string };

export type RegistrationOutcome =
  | { readonly kind: 'session'; readonly session: AuthSession }
  /** The account exists but waits for its e-mail (a verification mail or a magic link went out). */
  | { readonly kind: 'needs-email-verification' }
  | { readonly kind: 'needs-otp'; readonly phoneNumber: string }
  | { readonly kind: 'error'; readonly error: AuthErrorPayload };

export type RegistrationEvent =
  | { readonly type: 'REGISTER'; readonly request: RegistrationRequest; readonly anonymousAccessToken?: string }
  | { readonly type: 'RESET' };

export interface RegistrationContext {
  readonly email: string | undefined;
  readonly phoneNumber: string | undefined;
  readonly session: AuthSession | undefined;
  readonly error: AuthErrorPayload | undefined;
  /** Whether the last registration converted an anonymous user (its anonymous sessions have ended). */
  readonly converted: boolean;
}

type CredentialCreator = typeof browserCreateCredential;

/** What the machine needs beyond fetch: the browser's authenticator (a stub in tests). */
export interface RegistrationEnvironment {
  readonly createCredential: CredentialCreator;
}

/** docs/PRODUCT.md section 5: deanonymization accepts only passwordless (email or sms) or email-password. */
export const UNKNOWN_DEANONYMIZATION_METHOD: AuthErrorPayload = { status: STATUS_INPUT, error: 'invalid-deanonymization-method', message: 'Unknown deanonymization method' };

const EMPTY: RegistrationContext = { email: undefined, phoneNumber: undefined, session: undefined, error: undefined, converted: false };

const failure = (error: AuthErrorPayload): RegistrationOutcome => ({ kind: 'error', error });

/** A sign-up answer: a session, or `session: null` while the e-mail waits for verification. */
function fromSignUp(result: ApiResult<SessionOrMfa>): RegistrationOutcome {
  if (!result.ok) return failure(result.error);
  return result.value.session ? { kind: 'session', session: result.value.session } : { kind: 'needs-email-verification' };
}

/** docs/PRODUCT.md section 5 check of a request's fields, or undefined when they pass. */
function invalidField(request: RegistrationRequest): AuthErrorPayload | undefined {
  switch (request.method) {
    case 'email-password':
      if (!isValidEmail(request.email)) return clientError('invalid-email');
      return isValidPassword(request.password) ? undefined : clientError('invalid-password');
    case 'security-key':
    case 'passwordless-email':
      return isValidEmail(request.email) ? undefined : clientError('invalid-email');
    case 'passwordless-sms':
    case 'sms-otp':
      return isValidPhoneNumber(request.phoneNumber) ? undefined : clientError('invalid-phone-number');
  }
}

async function signUpWithSecurityKey(request: Extract<RegistrationRequest, { method: 'security-key' }>, environment: RegistrationEnvironment): Promise<RegistrationOutcome> {
  const creation = await authApi.signUpWebauthn({ email: request.email, ...(request.options ? { options: request.options } : {}) });
  if (!creation.ok) return failure(creation.error);
  const credential = await environment.createCredential(creation.value);
  if (!credential.ok) return failure(credential.error);
  const options = { ...(request.options?.redirectTo ? { redirectTo: request.options.redirectTo } : {}), ...(request.nickname ? { nickname: request.nickname } : {}) };
  // docs/PRODUCT.md section 7 puts the nickname in options; hasura-auth (and our server) read it at the top level: send both.
  const body = { credential: credential.value, options, ...(request.nickname ? { nickname: request.nickname } : {}) };
  return fromSignUp(await authApi.signUpWebauthnVerify(body));
}

/** Converts the signed-in anonymous user (docs/PRODUCT.md section 4); its anonymous sessions end at the server. */
async function convert(request: RegistrationRequest, accessToken: string): Promise<RegistrationOutcome> {
  switch (request.method) {
    case 'email-password': {
      const converted = await authApi.deanonymize({ signInMethod: 'email-password', email: request.email, password: request.password, ...(request.options ? { options: request.options } : {}) }, accessToken);
      if (!converted.ok) return failure(converted.error);
      // Sign the converted account in; while its e-mail is unverified the server refuses, and the verification mail already went out.
      const signedIn = await authApi.signInEmailPassword({ email: request.email, password: request.password });
      return signedIn.ok && signedIn.value.session ? { kind: 'session', session: signedIn.value.session } : { kind: 'needs-email-verification' };
    }
    case 'passwordless-email': {
      const converted = await authApi.deanonymize({ signInMethod: 'passwordless', connection: 'email', email: request.email, ...(request.options ? { options: request.options } : {}) }, accessToken);
      return converted.ok ? { kind: 'needs-email-verification' } : failure(converted.error);
    }
    case 'passwordless-sms': {
      const converted = await authApi.deanonymize({ signInMethod: 'passwordless', connection: 'sms', phoneNumber: request.phoneNumber, ...(request.options ? { options: request.options } : {}) }, accessToken);
      return converted.ok ? { kind: 'needs-otp', phoneNumber: request.phoneNumber } : failure(converted.error);
    }
    default:
      return failure(UNKNOWN_DEANONYMIZATION_METHOD);
  }
}

/** Validates and sends one registration request; `anonymousAccessToken` converts that anonymous user instead of creating one. */
export async function register(request: RegistrationRequest, environment: RegistrationEnvironment & { readonly anonymousAccessToken?: string | undefined }): Promise<RegistrationOutcome> {
  const invalid = invalidField(request);
  if (invalid) return failure(invalid);
  // The SMS code only completes a registration already started (converted or not).
  if (environment.anonymousAccessToken && request.method !== 'sms-otp') return convert(request, environment.anonymousAccessToken);
  switch (request.method) {
    case 'email-password':
      return fromSignUp(await authApi.signUpEmailPassword({ email: request.email, password: request.password, ...(request.options ? { options: request.options } : {}) }));
    case 'security-key':
      return signUpWithSecurityKey(request, environment);
    case 'passwordless-email': {
      const sent = await authApi.signInPasswordlessEmail({ email: request.email, ...(request.options ? { options: request.options } : {}) });
      return sent.ok ? { kind: 'needs-email-verification' } : failure(sent.error);
    }
    case 'passwordless-sms': {
      const sent = await authApi.signInPasswordlessSms({ phoneNumber: request.phoneNumber, ...(request.options ? { options: request.options } : {}) });
      return sent.ok ? { kind: 'needs-otp', phoneNumber: request.phoneNumber } : failure(sent.error);
    }
    case 'sms-otp': {
      const verified = await authApi.signInPasswordlessSmsOtp({ phoneNumber: request.phoneNumber ?? '', otp: request.otp });
      if (!verified.ok) return failure(verified.error);
      if (verified.value.session) return { kind: 'session', session: verified.value.session };
      // An existing account with TOTP on answers an MFA ticket: that is a sign-in, not a registration.
      return failure({ status: STATUS_INTERNAL, error: 'mfa-required', message: 'This phone number belongs to an account with two-factor authentication: sign in instead' });
    }
  }
}

interface RegisterInput {
  readonly request: RegistrationRequest;
  readonly anonymousAccessToken: string | undefined;
}

type RegisterEvent = Extract<RegistrationEvent, { type: 'REGISTER' }>;

/** The request with the machine's phone number filled in for an SMS code that names none. */
function completed(request: RegistrationRequest, context: RegistrationContext): RegistrationRequest {
  if (request.method !== 'sms-otp' || request.phoneNumber !== undefined) return request;
  return context.phoneNumber === undefined ? request : { ...request, phoneNumber: context.phoneNumber };
}

function remember(context: RegistrationContext, event: RegisterEvent): RegistrationContext {
  const request = completed(event.request, context);
  const isOtp = request.method === 'sms-otp';
  return {
    ...context,
    error: undefined,
    email: 'email' in request ? request.email : context.email,
    phoneNumber: 'phoneNumber' in request ? request.phoneNumber : context.phoneNumber,
    // The SMS code finishes the conversion started by passwordless-sms: keep what that step recorded.
    converted: isOtp ? context.converted : event.anonymousAccessToken !== undefined,
  };
}

/** Builds the registration machine; tests pass a stub authenticator. */
export function createRegistrationMachine(environment: RegistrationEnvironment = { createCredential: browserCreateCredential }) {
  return setup({
    types: {
      context: {} as RegistrationContext,
      events: {} as RegistrationEvent,
      output: {} as { readonly session: AuthSession | undefined },
    },
    actors: {
      register: fromPromise<RegistrationOutcome, RegisterInput>(({ input }) => register(input.request, { ...environment, anonymousAccessToken: input.anonymousAccessToken })),
    },
  }).createMachine({
    id: 'registration',
    context: EMPTY,
    initial: 'incomplete',
    output: ({ context }) => ({ session: context.session }),
    states: {
      incomplete: {
        initial: 'noErrors',
        on: {
          REGISTER: { target: '.registering', actions: assign(({ context, event }) => remember(context, event)) },
          RESET: { target: '.noErrors', actions: assign(() => EMPTY) },
        },
        states: {
          noErrors: {},
          needsEmailVerification: {},
          needsOtp: {},
          failed: {},
          registering: {
            // One request at a time: a second REGISTER while one is under way is dropped.
            on: { REGISTER: {} },
            invoke: {
              src: 'register',
              input: ({ context, event }) => {
                const register = event as RegisterEvent;
                return { request: completed(register.request, context), anonymousAccessToken: register.anonymousAccessToken };
              },
              onDone: [
                {
                  guard: ({ event }) => event.output.kind === 'session',
                  target: '#registration.complete',
                  actions: assign({ session: ({ event }) => (event.output.kind === 'session' ? event.output.session : undefined) }),
                },
                { guard: ({ event }) => event.output.kind === 'needs-email-verification', target: 'needsEmailVerification' },
                {
                  guard: ({ event }) => event.output.kind === 'needs-otp',
                  target: 'needsOtp',
                  actions: assign({ phoneNumber: ({ event, context }) => (event.output.kind === 'needs-otp' ? event.output.phoneNumber : context.phoneNumber) }),
                },
                {
                  target: 'failed',
                  actions: assign({ error: ({ event }) => (event.output.kind === 'error' ? event.output.error : undefined) }),
                },
              ],
              onError: {
                target: 'failed',
                actions: assign({ error: ({ event }) => ({ status: STATUS_INTERNAL, error: 'internal-error', message: event.error instanceof Error ? event.error.message : String(event.error) }) }),
              },
            },
          },
        },
      },
      complete: { type: 'final' },
    },
  });
}

/** The registration machine with the browser's authenticator. */
export const registrationMachine = createRegistrationMachine();


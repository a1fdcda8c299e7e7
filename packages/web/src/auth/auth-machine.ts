// The authentication machine of docs/PRODUCT.md section 4:
//   starting  -> tries the saved refresh token; 5xx and network failures are retried with
//                backoff (5 s x 2^(attempt-1)), anything else ends in signedOut.
//   signedOut -> noErrors | authenticating | success (a link or code went out) | needsSmsOtp |
//                needsMfa | failed | signingOut
//   signedIn  -> runs the refresh timer (not for a PAT session), takes SESSION_UPDATE from other
//                tabs or an elevation, and signs out.
// The machine only decides; storing and broadcasting sessions is done by its actions, which the
// auth service supplies (auth-service.ts), so the machine runs the same in tests.
import { assign, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import type { AuthErrorPayload, AuthSession } from './auth-types';
import { readClaims } from './claims';
import { signIn, type SignInOutcome, type SignInRequest } from './sign-in';

/** docs/PRODUCT.md section 9: the refresh timer checks every second. */
const REFRESH_CHECK_MS = 1_000;
/** Refresh when less than half the token's lifetime is left, at most this long before it expires. */
const REFRESH_MARGIN_CAP_SECONDS = 300;
/** docs/PRODUCT.md section 9: retry delay 5 s x 2^(attempts - 1); the maximum is not shown: 5 attempts. */
export const RETRY_BASE_MS = 5_000;
export const MAX_RETRIES = 5;

export interface AuthContext {
  readonly session: AuthSession | undefined;
  readonly mfa: { readonly ticket: string } | undefined;
  readonly error: AuthErrorPayload | undefined;
  readonly userId: string | undefined;
  readonly role: string | undefined;
  readonly permissions: readonly string[];
  readonly pat: boolean;
  readonly smsPhoneNumber: string | undefined;
  readonly importAttempts: number;
  /** When the current access token was received (epoch ms). */
  readonly receivedAt: number;
}

export type AuthEvent =
  | { readonly type: 'SIGNIN'; readonly request: SignInRequest }
  | { readonly type: 'SIGNOUT'; readonly all?: boolean }
  /**
   * A new session of the same user: from an elevation or a link on this tab (stored and announced),
   * or heard from another tab (`fromOtherTab`: that tab stored and announced it, so announcing it
   * again would bounce it between the tabs for ever).
   */
  | { readonly type: 'SESSION_UPDATE'; readonly session: AuthSession; readonly fromOtherTab?: boolean }
  | { readonly type: 'SIGNED_OUT_ELSEWHERE' }
  | { readonly type: 'REFRESHED'; readonly session: AuthSession }
  | { readonly type: 'REFRESH_FAILED'; readonly error: AuthErrorPayload }
  | { readonly type: 'CLEAR_ERROR' };

/** What the machine needs from its surroundings. */
export interface AuthEnvironment {
  /** The refresh token kept by this browser, if any. */
  storedRefreshToken(): string | undefined;
  /** Refreshes the session (one tab at a time; the provider uses the latest stored token). */
  refresh(session: AuthSession): Promise<{ ok: true; session: AuthSession } | { ok: false; error: AuthErrorPayload }>;
  /** Ends the session at the server. */
  signOut(session: AuthSession | undefined, all: boolean): Promise<void>;
  /** Keeps and announces a new or refreshed session. */
  sessionChanged(session: AuthSession): void;
  /** Forgets the session locally (after a sign-out or a dead refresh token). */
  sessionEnded(reason: 'signout' | 'expired' | 'elsewhere'): void;
  now(): number;
}

const EMPTY: AuthContext = {
  session: undefined, mfa: undefined, error: undefined, userId: undefined, role: undefined, permissions: [], pat: false,
  smsPhoneNumber: undefined, importAttempts: 0, receivedAt: 0,
};

function withSession(context: AuthContext, update: { session: AuthSession; now: number; pat?: boolean }): AuthContext {
  const { session, now } = update;
  const pat = update.pat ?? context.pat;
  const claims = readClaims(session.accessToken);
  return {
    ...context, session, mfa: undefined, error: undefined, pat, smsPhoneNumber: undefined, importAttempts: 0, receivedAt: now,
    userId: claims?.userId ?? session.user?.id, role: claims?.role ?? session.user?.defaultRole, permissions: claims?.permissions ?? [],
  };
}

/** When the access token received at `receivedAt` should be refreshed (epoch ms). */
export function refreshDueAt(context: Pick<AuthContext, 'session' | 'receivedAt'>): number {
  const lifetime = context.session?.accessTokenExpiresIn ?? 0;
  const margin = Math.min(lifetime / 2, REFRESH_MARGIN_CAP_SECONDS);
  return context.receivedAt + (lifetime - margin) * 1000;
}

/** Whether a failed call is worth retrying: network errors and server errors (status >= 500). */
export function retryable(error: AuthErrorPayload): boolean {
  return error.status === 0 || error.status >= 500;
}

export function retryDelay(attempt: number): number {
  return RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1);
}

/** Dotted state paths of the machine, e.g. `signedOut.needsMfa`. */
export type AuthStatePath =
  | 'starting' | 'starting.importing' | 'starting.waiting' | 'signedIn' | 'signedOut'
  | `signedOut.${'noErrors' | 'success' | 'needsSmsOtp' | 'needsMfa' | 'failed' | 'signingOut' | 'authenticating'}`;

/** Whether a snapshot is in a state given by its dotted path. */
export function inState(snapshot: { matches(value: never): boolean }, path: AuthStatePath): boolean {
  const [parent, child] = path.split('.') as [string, string | undefined];
  return (snapshot.matches as (value: unknown) => boolean)(child === undefined ? parent : { [parent]: child });
}

export function createAuthMachine(environment: AuthEnvironment) {
  return setup({
    types: { context: {} as AuthContext, events: {} as AuthEvent },
    actors: {
      importSession: fromPromise<SignInOutcome, { refreshToken: string }>(({ input }) => signIn({ method: 'refresh-token', refreshToken: input.refreshToken })),
      signIn: fromPromise<SignInOutcome, { request: SignInRequest }>(({ input }) => signIn(input.request)),
      signOut: fromPromise<void, { session: AuthSession | undefined; all: boolean }>(({ input }) => environment.signOut(input.session, input.all)),
      refresher: fromCallback<AuthEvent, { context: AuthContext }>(({ sendBack, input, receive }) => {
        // A PAT session cannot be refreshed (docs/PRODUCT.md section 4: no refresh timer for a PAT).
        if (input.context.pat) return () => undefined;
        let context = input.context;
        let attempts = 0;
        let nextTry = 0;
        let running = false;
        receive((event) => {
          if (event.type === 'SESSION_UPDATE' || event.type === 'REFRESHED') context = { ...context, session: event.session, receivedAt: environment.now() };
        });
        const timer = setInterval(() => {
          const now = environment.now();
          if (running || !context.session || now < refreshDueAt(context) || now < nextTry) return;
          running = true;
          void environment.refresh(context.session).then((result) => {
            running = false;
            if (result.ok) {
              attempts = 0;
              context = { ...context, session: result.session, receivedAt: environment.now() };
              sendBack({ type: 'REFRESHED', session: result.session });
              return;
            }
            attempts += 1;
            if (retryable(result.error) && attempts < MAX_RETRIES) nextTry = environment.now() + retryDelay(attempts);
            else sendBack({ type: 'REFRESH_FAILED', error: result.error });
          });
        }, REFRESH_CHECK_MS);
        return () => clearInterval(timer);
      }),
    },
    delays: { retry: ({ context }) => retryDelay(context.importAttempts) },
  }).createMachine({
    id: 'auth',
    context: EMPTY,
    initial: 'starting',
    states: {
      starting: {
        initial: 'importing',
        states: {
          importing: {
            always: { guard: ({ context }) => context.importAttempts === 0 && environment.storedRefreshToken() === undefined, target: '#auth.signedOut' },
            invoke: {
              src: 'importSession',
              input: () => ({ refreshToken: environment.storedRefreshToken() ?? '' }),
              onDone: [
                {
                  guard: ({ event }) => event.output.kind === 'session',
                  target: '#auth.signedIn',
                  actions: [
                    assign(({ context, event }) => (event.output.kind === 'session' ? withSession(context, { session: event.output.session, now: environment.now(), pat: false }) : context)),
                    ({ context }) => context.session && environment.sessionChanged(context.session),
                  ],
                },
                {
                  guard: ({ event, context }) => event.output.kind === 'error' && retryable(event.output.error) && context.importAttempts + 1 < MAX_RETRIES,
                  target: 'waiting',
                  actions: assign({ importAttempts: ({ context }) => context.importAttempts + 1 }),
                },
                { target: '#auth.signedOut', actions: () => environment.sessionEnded('expired') },
              ],
            },
          },
          waiting: {
            after: { retry: 'importing' },
          },
        },
      },
      signedOut: {
        initial: 'noErrors',
        on: {
          SIGNIN: '.authenticating',
        },
        states: {
          noErrors: {},
          success: { on: { CLEAR_ERROR: 'noErrors' } },
          needsSmsOtp: { on: { CLEAR_ERROR: 'noErrors' } },
          needsMfa: { on: { CLEAR_ERROR: 'noErrors' } },
          // A sign-in in flight is never cancelled by clearing an error.
          failed: { on: { CLEAR_ERROR: { target: 'noErrors', actions: assign({ error: undefined }) } } },
          signingOut: {
            invoke: {
              src: 'signOut',
              input: ({ context, event }) => ({ session: context.session, all: event.type === 'SIGNOUT' && event.all === true }),
              onDone: { target: 'noErrors', actions: [assign(() => EMPTY), () => environment.sessionEnded('signout')] },
              onError: { target: 'noErrors', actions: [assign(() => EMPTY), () => environment.sessionEnded('signout')] },
            },
          },
          authenticating: {
            invoke: {
              src: 'signIn',
              input: ({ event, context }) => {
                const request = (event as Extract<AuthEvent, { type: 'SIGNIN' }>).request;
                // The TOTP step takes the ticket the password step left in the context when the form gives none.
                if (request.method === 'mfa-totp' && request.ticket === undefined) return { request: { ...request, ticket: context.mfa?.ticket } };
                return { request };
              },
              onDone: [
                {
                  guard: ({ event }) => event.output.kind === 'session',
                  target: '#auth.signedIn',
                  actions: [
                    assign(({ context, event }) => (event.output.kind === 'session' ? withSession(context, { session: event.output.session, now: environment.now(), pat: event.output.pat }) : context)),
                    ({ context }) => context.session && environment.sessionChanged(context.session),
                  ],
                },
                { guard: ({ event }) => event.output.kind === 'mfa', target: 'needsMfa', actions: assign({ mfa: ({ event }) => (event.output.kind === 'mfa' ? { ticket: event.output.ticket } : undefined), error: undefined }) },
                { guard: ({ event }) => event.output.kind === 'sms-sent', target: 'needsSmsOtp', actions: assign({ smsPhoneNumber: ({ event }) => (event.output.kind === 'sms-sent' ? event.output.phoneNumber : undefined), error: undefined }) },
                { guard: ({ event }) => event.output.kind === 'link-sent', target: 'success', actions: assign({ error: undefined }) },
                {
                  target: 'failed',
                  actions: assign({ error: ({ event }) => (event.output.kind === 'error' || event.output.kind === 'needs-email-verification' ? event.output.error : undefined) }),
                },
              ],
              onError: { target: 'failed', actions: assign({ error: ({ event }) => ({ status: 1, error: 'internal-error', message: String((event.error as Error)?.message ?? event.error) }) }) },
            },
          },
        },
      },
      signedIn: {
        invoke: {
          id: 'refresher',
          src: 'refresher',
          input: ({ context }) => ({ context }),
        },
        on: {
          SIGNIN: { actions: assign({ error: () => ({ status: 20, error: 'already-signed-in', message: 'User is already signed in' }) }) },
          SIGNOUT: '#auth.signedOut.signingOut',
          SESSION_UPDATE: {
            actions: [
              assign(({ context, event }) => withSession(context, { session: event.session, now: environment.now() })),
              sendTo('refresher', ({ event }) => event),
              ({ event }) => { if (!event.fromOtherTab) environment.sessionChanged(event.session); },
            ],
          },
          REFRESHED: {
            actions: [
              assign(({ context, event }) => withSession(context, { session: event.session, now: environment.now() })),
              ({ event }) => environment.sessionChanged(event.session),
            ],
          },
          REFRESH_FAILED: {
            target: '#auth.signedOut.failed',
            actions: [assign(({ event }) => ({ ...EMPTY, error: event.error })), () => environment.sessionEnded('expired')],
          },
          SIGNED_OUT_ELSEWHERE: { target: '#auth.signedOut.noErrors', actions: [assign(() => EMPTY), () => environment.sessionEnded('elsewhere')] },
        },
      },
    },
  });
}

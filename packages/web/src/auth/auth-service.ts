// The one running auth machine of the page, wired to storage, the auth service and the other tabs:
// - a new or refreshed session is stored (token-storage.ts), mirrored into the auth store and
//   handed to the other tabs over a BroadcastChannel, so only one tab ever spends a refresh token;
// - refreshes run under a cross-tab lock and always use the latest stored refresh token (another
//   tab may have rotated it), so two tabs never present the same token (that would revoke it);
// - a sign-out is announced and every other tab signs out too (docs/PRODUCT.md section 4).
import { createActor, type SnapshotFrom } from 'xstate';
import { useSelector } from '@xstate/react';
import { useAuthStore } from '../stores/auth-store';
import { authApi } from './auth-api';
import { createAuthMachine, inState, type AuthEnvironment, type AuthStatePath } from './auth-machine';
import type { AuthSession } from './auth-types';
import { readClaims } from './claims';
import { clearAccessTokenCookie, clearStoredRefreshToken, readStoredRefreshToken, storeSession } from './token-storage';

const CHANNEL = 'vyuha-auth';
const REFRESH_LOCK = 'vyuha-auth-refresh';

type TabMessage = { readonly type: 'session'; readonly session: AuthSession } | { readonly type: 'signout' };

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
const listeners = new Set<(message: TabMessage) => void>();

/** Runs `work` while no other tab refreshes (Web Locks where the browser has them). */
async function exclusively<T>(work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks) return navigator.locks.request(REFRESH_LOCK, work);
  return work();
}

const environment: AuthEnvironment = {
  storedRefreshToken: () => readStoredRefreshToken()?.refreshToken,
  refresh: (session) => exclusively(async () => {
    // Another tab may have rotated the token since this tab last heard: use what is stored.
    const refreshToken = readStoredRefreshToken()?.refreshToken ?? session.refreshToken;
    const result = await authApi.refresh({ refreshToken });
    return result.ok ? { ok: true as const, session: result.value } : { ok: false as const, error: result.error };
  }),
  signOut: async (session, all) => {
    if (!session) return;
    await authApi.signOut(all ? { all: true } : { refreshToken: session.refreshToken }, session.accessToken);
  },
  sessionChanged: (session) => {
    storeSession(session);
    channel?.postMessage({ type: 'session', session } satisfies TabMessage);
  },
  sessionEnded: (reason) => {
    clearAccessTokenCookie();
    useAuthStore.getState().reset();
    if (reason === 'signout') channel?.postMessage({ type: 'signout' } satisfies TabMessage);
    // A dead refresh token is of no use to any tab; after a sign-out the cleanup removes it (100 ms later, docs/PRODUCT.md section 4).
    if (reason === 'expired') clearStoredRefreshToken();
  },
  now: () => Date.now(),
};

export const authActor = createActor(createAuthMachine(environment));

// Mirror the machine into the auth store (docs/PRODUCT.md section 3's auth state).
authActor.subscribe((snapshot) => {
  const { session, mfa, error, userId, role, permissions } = snapshot.context;
  useAuthStore.getState().mirror({ session, mfa, error, userId, role, permissions });
});

channel?.addEventListener('message', (event: MessageEvent<TabMessage>) => {
  const message = event.data;
  for (const listener of listeners) listener(message);
  const snapshot = authActor.getSnapshot();
  if (message.type === 'signout') {
    if (snapshot.matches('signedIn')) authActor.send({ type: 'SIGNED_OUT_ELSEWHERE' });
    return;
  }
  // Token hand-over: the same user's new session replaces ours without another refresh.
  const incoming = readClaims(message.session.accessToken)?.userId;
  if (snapshot.matches('signedIn') && incoming !== undefined && incoming === snapshot.context.userId) {
    authActor.send({ type: 'SESSION_UPDATE', session: message.session, fromOtherTab: true });
  }
});

authActor.start();

/** Hears what other tabs announce (the shell opens the session-refresh dialog on another user's session). */
export function onTabMessage(listener: (message: TabMessage) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type AuthSnapshot = SnapshotFrom<typeof authActor>;

/** Whether the auth machine is in a state (dotted path, e.g. `signedOut.needsMfa`). */
export function authIn(snapshot: AuthSnapshot, path: AuthStatePath): boolean {
  return inState(snapshot, path);
}

/** The auth machine's state in a component. */
export function useAuthState<T>(select: (snapshot: AuthSnapshot) => T): T {
  return useSelector(authActor, select);
}

/** The current access token, if signed in. */
export function currentAccessToken(): string | undefined {
  const snapshot = authActor.getSnapshot();
  return snapshot.matches('signedIn') ? snapshot.context.session?.accessToken : undefined;
}

/** Resolves once the machine has left `starting` (docs/PRODUCT.md section 9: wait-until-ready 15 s). */
export function waitUntilReady(timeoutMs = 15_000): Promise<AuthSnapshot> {
  return new Promise((resolve, reject) => {
    const done = (snapshot: AuthSnapshot): boolean => {
      if (snapshot.matches('starting')) return false;
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(snapshot);
      return true;
    };
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error('The state machine is not yet ready after 15 seconds.'));
    }, timeoutMs);
    const subscription = authActor.subscribe(done);
    done(authActor.getSnapshot());
  });
}

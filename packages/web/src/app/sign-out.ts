// Sign-out in the order of docs/PRODUCT.md section 4: reset every store, clear the time zone, re-enable the
// holiday notification, end the default and CSV GraphQL subscriptions, sign out of the auth
// service, then 100 ms later remove the refresh token and its expiry from local storage and clear
// session storage.
import { authActor } from '../auth/auth-service';
import { clearStoredRefreshToken } from '../auth/token-storage';
import { restartGraphqlClients } from '../graphql/graphql-client';
import { useAppStore } from '../stores/app-store';
import { useAuthStore } from '../stores/auth-store';
import { runSignOutResets } from '../stores/sign-out-resets';

/** docs/PRODUCT.md section 9: sign-out cleanup delay 100 ms. */
export const SIGN_OUT_CLEANUP_MS = 100;
/** The holiday notice is shown once per sign-in; dismissing it sets this key. */
export const HOLIDAY_NOTICE_DISMISSED_KEY = 'vyuha-holiday-notice-dismissed';

/** The local half of a sign-out: stores, time zone, holiday notice, GraphQL clients (also run when another tab signed out). */
export function clearLocalSession(): void {
  useAppStore.getState().reset();
  useAuthStore.getState().reset();
  runSignOutResets();
  useAppStore.getState().setTimeZone(undefined);
  localStorage.removeItem(HOLIDAY_NOTICE_DISMISSED_KEY);
  restartGraphqlClients();
}

/** Signs out of this tab (and, through the auth service, every other tab). `all`: every session of the user. */
export function signOut(options: { all?: boolean } = {}): Promise<void> {
  clearLocalSession();
  authActor.send({ type: 'SIGNOUT', ...(options.all ? { all: true } : {}) });
  // The machine sends the sign-out with the token it holds; the stored copy goes now as well as in
  // the cleanup below, because a page that navigates away within the 100 ms never runs the
  // cleanup, and the next page would try the revoked token (a refused POST /token).
  clearStoredRefreshToken();
  return new Promise((resolve) => {
    setTimeout(() => {
      clearStoredRefreshToken();
      sessionStorage.clear();
      resolve();
    }, SIGN_OUT_CLEANUP_MS);
  });
}

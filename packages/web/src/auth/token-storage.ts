// Where a session outlives the page (docs/PRODUCT.md section 9): the refresh token, its id and its expiry in
// localStorage under the Nhost client's keys (so a new tab signs in from them, and a change in
// one tab reaches the others through the storage event), and the access token in a cookie
// (docs/PRODUCT.md section 7: 7-day max age, Secure, SameSite Lax) for requests the browser makes itself.
import type { AuthSession } from './auth-types';

export const REFRESH_TOKEN_KEY = 'nhostRefreshToken';
export const REFRESH_TOKEN_ID_KEY = 'nhostRefreshTokenId';
export const REFRESH_TOKEN_EXPIRES_AT_KEY = 'nhostRefreshTokenExpiresAt';
export const ACCESS_TOKEN_COOKIE = 'vyuhaAccessToken';
/** docs/PRODUCT.md section 9: cookie max age 604800 s. */
export const ACCESS_TOKEN_COOKIE_MAX_AGE = 604_800;
/** The auth service's AUTH_REFRESH_TOKEN_EXPIRES_IN default (30 days): when the stored refresh token stops working. */
export const REFRESH_TOKEN_LIFETIME_MS = 2_592_000_000;

export interface StoredRefreshToken {
  readonly refreshToken: string;
  readonly refreshTokenId: string | null;
  readonly expiresAt: number | null;
}

/** The refresh token this browser keeps, unless it has expired. */
export function readStoredRefreshToken(now = Date.now()): StoredRefreshToken | undefined {
  const refreshToken = localStorage.getItem(REFRESH_TOKEN_KEY);
  if (!refreshToken) return undefined;
  const expiresText = localStorage.getItem(REFRESH_TOKEN_EXPIRES_AT_KEY);
  const expiresAt = expiresText ? Date.parse(expiresText) : Number.NaN;
  if (Number.isFinite(expiresAt) && expiresAt <= now) return undefined;
  return { refreshToken, refreshTokenId: localStorage.getItem(REFRESH_TOKEN_ID_KEY), expiresAt: Number.isFinite(expiresAt) ? expiresAt : null };
}

/** Keeps a new session's refresh token and access-token cookie. */
export function storeSession(session: AuthSession, now = Date.now()): void {
  localStorage.setItem(REFRESH_TOKEN_KEY, session.refreshToken);
  localStorage.setItem(REFRESH_TOKEN_ID_KEY, session.refreshTokenId);
  localStorage.setItem(REFRESH_TOKEN_EXPIRES_AT_KEY, new Date(now + REFRESH_TOKEN_LIFETIME_MS).toISOString());
  const secure = window.location.protocol === 'https:' || window.location.hostname === 'localhost' || window.location.hostname === '127.0.0.1';
  document.cookie = `${ACCESS_TOKEN_COOKIE}=${encodeURIComponent(session.accessToken)}; Max-Age=${ACCESS_TOKEN_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Forgets the access-token cookie now (sign-out clears the refresh-token keys after 100 ms: see signOutCleanup). */
export function clearAccessTokenCookie(): void {
  document.cookie = `${ACCESS_TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/** Removes the stored refresh token and its expiry (and id). */
export function clearStoredRefreshToken(): void {
  localStorage.removeItem(REFRESH_TOKEN_KEY);
  localStorage.removeItem(REFRESH_TOKEN_ID_KEY);
  localStorage.removeItem(REFRESH_TOKEN_EXPIRES_AT_KEY);
}

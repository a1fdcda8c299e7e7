// The HTTP calls of docs/PRODUCT.md section 7's auth backend, relative to `/v1/auth`. Every call answers a
// value or an AuthErrorPayload; nothing throws for an HTTP or network failure.
import { clientError } from './auth-errors';
import type { AuthErrorPayload, AuthSession, AuthUser, MfaTicket } from './auth-types';

export const AUTH_BASE = '/v1/auth';

export type ApiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AuthErrorPayload };

interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly body?: unknown;
  readonly accessToken?: string | undefined;
}

/** One request to the auth service; JSON in and out. */
export async function authCall<T>(path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
  let response: Response;
  try {
    response = await fetch(`${AUTH_BASE}${path}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      credentials: 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    return { ok: false, error: clientError('network') };
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (response.ok) return { ok: true, value: parsed as T };
  const body = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<AuthErrorPayload>;
  return {
    ok: false,
    error: {
      status: typeof body.status === 'number' ? body.status : response.status,
      error: typeof body.error === 'string' ? body.error : 'internal-server-error',
      message: typeof body.message === 'string' ? body.message : response.statusText || 'The request failed',
    },
  };
}

export interface SessionOrMfa {
  readonly session: AuthSession | null;
  readonly mfa?: MfaTicket | null;
}

export interface SignUpOptions {
  readonly displayName?: string;
  readonly redirectTo?: string;
  readonly locale?: string;
  readonly metadata?: Record<string, unknown>;
}

/** The auth service's endpoints as functions (docs/PRODUCT.md section 7). */
export const authApi = {
  signInEmailPassword: (body: { email: string; password: string }) => authCall<SessionOrMfa>('/signin/email-password', { body }),
  signInMfaTotp: (body: { ticket: string; otp: string }) => authCall<SessionOrMfa>('/signin/mfa/totp', { body }),
  signInPat: (body: { personalAccessToken: string }) => authCall<SessionOrMfa>('/signin/pat', { body }),
  signInAnonymous: () => authCall<SessionOrMfa>('/signin/anonymous', { body: {} }),
  signInPasswordlessEmail: (body: { email: string; options?: { redirectTo?: string } }) => authCall<string>('/signin/passwordless/email', { body }),
  signInPasswordlessSms: (body: { phoneNumber: string; options?: { redirectTo?: string } }) => authCall<string>('/signin/passwordless/sms', { body }),
  signInPasswordlessSmsOtp: (body: { phoneNumber: string; otp: string }) => authCall<SessionOrMfa>('/signin/passwordless/sms/otp', { body }),
  signInWebauthn: (body: { email?: string }) => authCall<PublicKeyCredentialRequestOptionsJSON>('/signin/webauthn', { body }),
  signInWebauthnVerify: (body: { email?: string; credential: unknown }) => authCall<SessionOrMfa>('/signin/webauthn/verify', { body }),
  signUpEmailPassword: (body: { email: string; password: string; options?: SignUpOptions }) => authCall<SessionOrMfa>('/signup/email-password', { body }),
  signUpWebauthn: (body: { email: string; options?: SignUpOptions }) => authCall<PublicKeyCredentialCreationOptionsJSON>('/signup/webauthn', { body }),
  signUpWebauthnVerify: (body: { credential: unknown; nickname?: string; options?: { redirectTo?: string; nickname?: string } }) => authCall<SessionOrMfa>('/signup/webauthn/verify', { body }),
  refresh: (body: { refreshToken: string }) => authCall<AuthSession>('/token', { body }),
  signOut: (body: { refreshToken?: string; all?: boolean }, accessToken?: string) => authCall<string>('/signout', { body, accessToken }),
  user: (accessToken: string) => authCall<AuthUser>('/user', { accessToken }),
  deanonymize: (body: Record<string, unknown>, accessToken: string) => authCall<string>('/user/deanonymize', { body, accessToken }),
  // currentPassword (ours): a Bearer token alone cannot change the e-mail or password, unless the
  // session was elevated in the last 5 minutes or came from a password-reset link (auth README).
  changeEmail: (body: { newEmail: string; currentPassword?: string; options?: { redirectTo?: string } }, accessToken: string) => authCall<string>('/user/email/change', { body, accessToken }),
  changePassword: (body: { newPassword: string; currentPassword?: string; ticket?: string }, accessToken?: string) => authCall<string>('/user/password', { body, accessToken }),
  resetPassword: (body: { email: string; options?: { redirectTo?: string } }) => authCall<string>('/user/password/reset', { body }),
  sendVerificationEmail: (body: { email: string; options?: { redirectTo?: string } }) => authCall<string>('/user/email/send-verification-email', { body }),
  generateTotp: (accessToken: string) => authCall<{ imageUrl: string; totpSecret: string }>('/mfa/totp/generate', { accessToken }),
  /** `currentPassword` (ours): the fresh proof activating asks of a session signed in over 5 minutes ago. */
  setMfa: (body: { code: string; activeMfaType: 'totp' | ''; currentPassword?: string }, accessToken: string) => authCall<string>('/user/mfa', { body, accessToken }),
  /** `currentPassword` (ours): the fresh proof a new key asks of a session signed in over 5 minutes ago. */
  addSecurityKey: (accessToken: string, body: { currentPassword?: string } = {}) =>
    authCall<PublicKeyCredentialCreationOptionsJSON>('/user/webauthn/add', { body, accessToken }),
  verifySecurityKey: (body: { credential: unknown; nickname?: string }, accessToken: string) => authCall<{ id: string; nickname: string }>('/user/webauthn/verify', { body, accessToken }),
  elevateWebauthn: (body: { email: string }, accessToken: string) => authCall<PublicKeyCredentialRequestOptionsJSON>('/elevate/webauthn', { body, accessToken }),
  elevateWebauthnVerify: (body: { email: string; credential: unknown }, accessToken: string) => authCall<SessionOrMfa>('/elevate/webauthn/verify', { body, accessToken }),
  /** `currentPassword` (ours): the fresh proof a new PAT asks of a session signed in over 5 minutes ago. */
  createPat: (body: { expiresAt: string; metadata?: Record<string, unknown>; currentPassword?: string }, accessToken: string) =>
    authCall<{ id: string; personalAccessToken: string }>('/pat', { body, accessToken }),
  listPats: (accessToken: string) => authCall<Array<{ id: string; createdAt: string; expiresAt: string; metadata: Record<string, unknown> | null }>>('/user/pats', { accessToken }),
  revokePat: (id: string, accessToken: string) => authCall<string>(`/user/pats/${encodeURIComponent(id)}`, { method: 'DELETE', accessToken }),
};

/** Where the browser goes to sign in with an OAuth provider (docs/PRODUCT.md section 7); `connect` links a provider to the signed-in user. */
export function providerSignInUrl(provider: string, options: { redirectTo: string; connect?: string }): string {
  const query = new URLSearchParams({ redirectTo: options.redirectTo });
  if (options.connect) query.set('connect', options.connect);
  return `${AUTH_BASE}/signin/provider/${encodeURIComponent(provider)}?${query.toString()}`;
}

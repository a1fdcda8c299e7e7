// The shapes of the auth service's API (hasura-auth's, docs/AUTH-CONTRACT.md) as the web app reads them.

/** The signed-in user as `/v1/auth` returns it. */
export interface AuthUser {
  readonly id: string;
  readonly createdAt: string;
  readonly displayName: string;
  readonly avatarUrl: string;
  readonly locale: string;
  readonly email?: string | null;
  readonly emailVerified: boolean;
  readonly phoneNumber?: string | null;
  readonly phoneNumberVerified: boolean;
  readonly isAnonymous: boolean;
  readonly defaultRole: string;
  readonly roles: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly activeMfaType: string | null;
}

/** docs/PRODUCT.md section 3: accessToken, accessTokenExpiresIn (seconds), refreshToken, refreshTokenId, user. */
export interface AuthSession {
  readonly accessToken: string;
  readonly accessTokenExpiresIn: number;
  readonly refreshToken: string;
  readonly refreshTokenId: string;
  readonly user?: AuthUser | null;
}

/** A password or SMS sign-in that needs the TOTP step: `mfaTotp:<uuid>`. */
export interface MfaTicket {
  readonly ticket: string;
}

/** The status classes of docs/PRODUCT.md section 8: 0 network, 1 internal, 10 input, 20 state; otherwise the HTTP status. */
export type AuthErrorStatus = number;

/** An auth failure: the server's `{status, message, error}` or a client-side one (docs/PRODUCT.md section 8 codes). */
export interface AuthErrorPayload {
  readonly status: AuthErrorStatus;
  readonly error: string;
  readonly message: string;
}

export type SignInResult =
  | { readonly kind: 'session'; readonly session: AuthSession }
  | { readonly kind: 'mfa'; readonly mfa: MfaTicket }
  | { readonly kind: 'needs-email-verification' }
  | { readonly kind: 'error'; readonly error: AuthErrorPayload };

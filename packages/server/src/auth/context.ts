/**
 * The seam of the auth service: what every route module under /v1/auth receives.
 *
 * A route module (see `routes.ts`) is `{ name, register(app, context) }`. `app` is the Fastify
 * instance already scoped to the `/v1/auth` prefix, with the auth error handler installed: throw
 * an `AuthError` (errors.ts) anywhere and the client gets docs/AUTH-CONTRACT.md's `{status, message, error}`
 * (concealed when AUTH_CONCEAL_ERRORS is on, with Retry-After for 429). `context` is this file's
 * `AuthContext`:
 *
 * - `pool`, `config` (auth/config.ts), `log` (never log tokens, tickets, codes or passwords);
 * - `keys`: sign / verify access tokens (`keys.verify(token)` -> claims) and the JWKS;
 * - `issueSession(userId, {elevated?, pat?, passwordReset?, client?})` -> docs/AUTH-CONTRACT.md's Session (new
 *   refresh-token family signed in now, access token with every claim; refuses disabled users
 *   with `disabled-user`); `createAccessToken(userId, {elevated?, pat?, passwordResetFamily?,
 *   signedInAt?})` -> just an access token and its lifetime;
 * - `authenticateBearer(request, {allowAnonymous?})` -> the signed-in user or 401
 *   `unauthenticated-user` (a PAT session whose PAT is revoked or expired included);
 *   `authenticateToken(request, token)` the same for a token given some other way;
 *   `requireElevation(user)` applies AUTH_REQUIRE_ELEVATED_CLAIM; what a PAT session may not do
 *   and what changing credentials or enrolling a new factor needs are in `credential-proof.ts`;
 * - `tickets`: the single `auth.users.ticket` slot hasura-auth uses (`mfaTotp:<uuid>`,
 *   `verifyEmail:`, `passwordReset:`, `emailConfirmChange:`, `passwordlessEmail:`): `create`,
 *   `peek` (check without using it, e.g. before counting a TOTP attempt), `consume` (once only);
 * - `links`: `checkRedirect(redirectTo)` (AUTH_CLIENT_URL / allow list, else
 *   `redirectTo-not-allowed`), `verifyLink({ticket, type, redirectTo})` (the `GET /verify` URL
 *   to put in an e-mail; types emailVerify, emailConfirmChange, signinPasswordless,
 *   passwordReset), `redirectWith(redirectTo, params)`;
 * - `mailer.sendTemplate({template, to, ...})` (SMTP, or auth.outbox with no SMTP configured),
 *   `sms.send({to, body})` (auth.outbox by default);
 * - `audit.record({action, actorUserId, entityId, details, request})` into public.audit_log;
 * - `rateLimiter.hit(request, {bucket, account?})`: counts one hit per IP (and per account when
 *   given) in the Postgres-backed bucket, throws 429 `too-many-requests` with Retry-After;
 * - `signInThrottle.begin(request, {account?, perSource?})` before judging a guessed secret, then
 *   `attempt.succeeded()` or `attempt.failed()`: only failures count, waits grow instead of
 *   locking (signin-throttle.ts);
 * - `users`: `get` (docs/AUTH-CONTRACT.md's User), `findByEmail`, `create` (profile, roles, sign-up options
 *   checked), `signUpRoles` (validates SignUpOptions roles);
 * - `passwords`: `hash`, `verify` (argon2id), `check` (length policy).
 *
 * Nothing here is module-global: tests build as many contexts as they like.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { AuthConfig, RateLimitBucket } from './config';
import type { AccessTokenClaims } from './jwt';

/** docs/AUTH-CONTRACT.md's User. */
export interface User {
  readonly id: string;
  readonly createdAt: string;
  readonly displayName: string;
  readonly avatarUrl: string;
  readonly locale: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly phoneNumber: string | null;
  readonly phoneNumberVerified: boolean;
  readonly isAnonymous: boolean;
  readonly defaultRole: string;
  readonly roles: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly activeMfaType: string | null;
}

/** docs/AUTH-CONTRACT.md's Session. */
export interface Session {
  readonly accessToken: string;
  readonly accessTokenExpiresIn: number;
  readonly refreshToken: string;
  readonly refreshTokenId: string;
  readonly user: User;
}

export interface IssueSessionOptions {
  /** Adds `x-hasura-auth-elevated: <user id>` (after a WebAuthn or TOTP elevation). */
  readonly elevated?: boolean;
  /** A session from POST /signin/pat: marked, and ends when this PAT expires or is revoked. */
  readonly pat?: { readonly id: string; readonly expiresAt: Date };
  /** A session from a passwordReset link: may change the password once, without the current one. */
  readonly passwordReset?: boolean;
  /** Run inside the caller's transaction. */
  readonly client?: pg.PoolClient;
}

/** What an access token minted on its own (a refresh) carries besides the user's claims. */
export interface AccessTokenOptions {
  readonly elevated?: boolean;
  readonly client?: pg.PoolClient;
  readonly pat?: { readonly id: string; readonly expiresAt: Date };
  /** The family holding an open password-reset grant. */
  readonly passwordResetFamily?: string;
  /** When the session's family was signed in (the token's `auth_time`); kept through refreshes. */
  readonly signedInAt?: Date;
}

/** A request's verified Bearer identity. */
export interface AuthenticatedUser {
  readonly userId: string;
  readonly isAnonymous: boolean;
  readonly elevated: boolean;
  /** Seconds since the elevated token was issued (undefined when not elevated). */
  readonly elevatedForSeconds: number | undefined;
  /**
   * Seconds since the session's interactive sign-in (the token's `auth_time`, which refreshes
   * keep); undefined for a token that does not say (issued before migration 0016).
   */
  readonly signedInForSeconds: number | undefined;
  /** The PAT this session came from (POST /signin/pat), else undefined. */
  readonly patId: string | undefined;
  /** The refresh-token family whose password-reset grant this token carries, else undefined. */
  readonly passwordResetFamily: string | undefined;
  readonly claims: AccessTokenClaims;
}

/** Ticket prefixes in auth.users.ticket (hasura-auth's). */
export type TicketType = 'mfaTotp' | 'verifyEmail' | 'passwordReset' | 'emailConfirmChange' | 'passwordlessEmail';

/** `type` values of `GET /verify` (hasura-auth's). */
export type VerifyLinkType = 'emailVerify' | 'emailConfirmChange' | 'signinPasswordless' | 'passwordReset';

export interface Tickets {
  /** Stores a new `<type>:<uuid>` ticket (replacing any other) and returns it. */
  create(userId: string, options: { type: TicketType; expiresInSeconds?: number; client?: pg.PoolClient }): Promise<string>;
  /** The user id the ticket belongs to while valid, without using it up. */
  peek(ticket: string, type: TicketType): Promise<string | undefined>;
  /** Uses the ticket up (once only) and returns its user id; undefined when invalid or expired. */
  consume(ticket: string, type: TicketType, options?: { client?: pg.PoolClient }): Promise<string | undefined>;
}

export interface Links {
  /** The redirect target to use: `redirectTo` when allowed, AUTH_CLIENT_URL when absent; else redirectTo-not-allowed. */
  checkRedirect(redirectTo: string | undefined): string;
  /** The `GET /verify` URL for an e-mail. */
  verifyLink(options: { ticket: string; type: VerifyLinkType; redirectTo: string }): string;
  /** `redirectTo` with query parameters added. */
  redirectWith(redirectTo: string, params: Readonly<Record<string, string>>): string;
}

/** E-mail templates (hasura-auth's names). */
export type EmailTemplate = 'email-verify' | 'password-reset' | 'email-confirm-change' | 'signin-passwordless' | 'signin-otp' | 'signup-existing-account'
  | 'manager-link-request' | 'manager-link-removed';

export interface SendTemplateOptions {
  readonly template: EmailTemplate;
  readonly to: string;
  readonly userId?: string;
  readonly displayName?: string;
  /** The link to follow (all templates but signin-otp). */
  readonly link?: string;
  /** The one-time code (signin-otp). */
  readonly code?: string;
  /** The other party of a manager link (manager-link-request: the manager; manager-link-removed: who removed it). */
  readonly otherName?: string;
}

export interface Mailer {
  /** Sends (or keeps in auth.outbox) one templated e-mail; never throws for delivery trouble. */
  sendTemplate(options: SendTemplateOptions): Promise<void>;
}

/** Sends text messages; the default keeps them in auth.outbox. */
export interface SmsSender {
  send(options: { to: string; body: string; userId?: string }): Promise<void>;
}

export interface AuditEntry {
  /** e.g. `auth.signin`, `auth.signin_failed`, `auth.mfa.activate`, `auth.token.revoke`. */
  readonly action: string;
  readonly actorUserId?: string | null;
  /** The auth.users id concerned (entity is `auth.users` unless given). */
  readonly entityId?: string | null;
  readonly entity?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly request?: FastifyRequest;
  readonly client?: pg.PoolClient;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
}

export interface RateLimiter {
  /** One hit per IP (and per account when given) in `bucket`; 429 too-many-requests when over. */
  hit(request: FastifyRequest, options: { bucket: RateLimitBucket; account?: string }): Promise<void>;
}

/** One throttled guess: report how it went. */
export interface SignInAttempt {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

export interface SignInThrottle {
  /**
   * Counts an attempt before it is judged; 429 too-many-requests (Retry-After) while the address
   * or the account must wait. `account` is a key (`email:...`, `user:...`, `phone:...`);
   * `perSource` counts per address only (the account has MFA behind this step).
   */
  begin(request: FastifyRequest, options: { account?: string; perSource?: boolean }): Promise<SignInAttempt>;
}

export interface CreateUserOptions {
  readonly email?: string;
  readonly phoneNumber?: string;
  readonly passwordHash?: string;
  readonly emailVerified?: boolean;
  readonly phoneNumberVerified?: boolean;
  readonly isAnonymous?: boolean;
  readonly displayName?: string;
  readonly locale?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly defaultRole?: string;
  readonly allowedRoles?: readonly string[];
  readonly client?: pg.PoolClient;
}

export interface UserStore {
  get(userId: string, client?: pg.PoolClient): Promise<User | undefined>;
  findByEmail(email: string, client?: pg.PoolClient): Promise<{ id: string; disabled: boolean; emailVerified: boolean; isAnonymous: boolean } | undefined>;
  /** Inserts the auth user, its roles and (non-anonymous) its profile row; returns the id. */
  create(options: CreateUserOptions): Promise<string>;
  /** Checks SignUpOptions' roles against AUTH_USER_DEFAULT_ALLOWED_ROLES. */
  signUpRoles(options: { allowedRoles?: readonly string[]; defaultRole?: string }): { allowedRoles: readonly string[]; defaultRole: string };
}

export interface Passwords {
  hash(password: string): Promise<string>;
  verify(passwordHash: string | null, password: string): Promise<boolean>;
  /** password-too-short, or invalid-request naming `field`. */
  check(password: unknown, field?: string): string;
}

export interface SigningKeys {
  /** Signs the claims with the current key. */
  sign(claims: AccessTokenClaims): Promise<string>;
  /** Verifies a token (allow-listed algorithm, known key, signature, issuer, expiry). */
  verify(token: string): Promise<AccessTokenClaims>;
  /** `{keys: [...]}` (empty for HS256). */
  jwks(): Promise<{ keys: readonly Record<string, string>[] }>;
}

export interface AuthContext {
  readonly pool: pg.Pool;
  readonly config: AuthConfig;
  readonly version: string;
  readonly log: FastifyBaseLogger;
  readonly keys: SigningKeys;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly audit: AuditLog;
  readonly rateLimiter: RateLimiter;
  readonly signInThrottle: SignInThrottle;
  readonly tickets: Tickets;
  readonly links: Links;
  readonly users: UserStore;
  readonly passwords: Passwords;
  issueSession(userId: string, options?: IssueSessionOptions): Promise<Session>;
  /** Only an access token (no new refresh token), e.g. for POST /token's rotation; its lifetime is capped by a PAT's expiry. */
  createAccessToken(userId: string, options?: AccessTokenOptions): Promise<{ accessToken: string; accessTokenExpiresIn: number }>;
  authenticateBearer(request: FastifyRequest, options?: { allowAnonymous?: boolean }): Promise<AuthenticatedUser>;
  /** The same for an access token that came some other way (the OAuth `connect` parameter). */
  authenticateToken(request: FastifyRequest, token: string, options?: { allowAnonymous?: boolean }): Promise<AuthenticatedUser>;
  /** Throws `elevated-claim-required` when AUTH_REQUIRE_ELEVATED_CLAIM demands an elevated token and this one is not. */
  requireElevation(user: AuthenticatedUser): Promise<void>;
}

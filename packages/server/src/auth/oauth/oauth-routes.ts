import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, AuthenticatedUser } from '../context';
import { requireFreshSession } from '../credential-proof';
import { AuthError, invalidRequest } from '../errors';
import type { AuthRouteModule } from '../routes';
import { signUpFields } from '../sms/sign-up-fields';
import { resolveProviderUser } from './account-linking';
import { authorizationUrl, completeSignIn, newFlowSecrets, OAuthFlowError, resolveEndpoints } from './oauth-client';
import { parseProviderId, readOAuthProviders, type OAuthProviderId, type OAuthProviderSettings } from './providers';

// Sign-in with OAuth / OpenID Connect providers: GET /signin/provider/:provider redirects to the
// provider with state (the auth.provider_requests row id), PKCE and a nonce; the callback
// trades the code, resolves the Vyuha user and redirects to `redirectTo?refreshToken=<uuid>`.

/** Options kept in auth.provider_requests between the redirect and the callback. */
interface PendingRequest {
  readonly provider: OAuthProviderId;
  readonly redirectTo: string;
  readonly codeVerifier: string;
  readonly nonce: string;
  readonly connectUserId?: string;
  readonly signUpOptions: Record<string, unknown>;
}

/** A provider sign-in that has not come back within this time is void. */
const PENDING_REQUEST_TTL_SECONDS = 600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OauthRouteOptions {
  readonly providers?: ReadonlyMap<OAuthProviderId, OAuthProviderSettings>;
  readonly nowMilliseconds?: () => number;
}

/** The OAuth route module for the enabled providers (default: the AUTH_PROVIDER_* variables, read at registration). */
export function createOauthRouteModule(options: OauthRouteOptions = {}): AuthRouteModule {
  const now = options.nowMilliseconds ?? Date.now;
  return {
    name: 'oauth',
    register(app: FastifyInstance, context: AuthContext) {
      const providers = options.providers ?? readOAuthProviders(process.env);
      const settingsOf = (raw: string): OAuthProviderSettings => {
        const id = parseProviderId(raw);
        const settings = id === undefined ? undefined : providers.get(id);
        if (!settings) throw new AuthError('disabled-endpoint', `The provider "${raw}" is not enabled`);
        return settings;
      };
      app.get<{ Params: { provider: string }; Querystring: Record<string, string | undefined> }>('/signin/provider/:provider', async (request, reply) => {
        const settings = settingsOf(request.params.provider);
        return start({ request, reply, context, settings, now });
      });
      app.get<{ Params: { provider: string }; Querystring: Record<string, string | undefined> }>('/signin/provider/:provider/callback', async (request, reply) => {
        const settings = settingsOf(request.params.provider);
        return callback({ request, reply, context, settings, now });
      });
    },
  };
}

interface Exchange {
  readonly request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>;
  readonly reply: FastifyReply;
  readonly context: AuthContext;
  readonly settings: OAuthProviderSettings;
  readonly now: () => number;
}

async function start({ request, reply, context, settings, now }: Exchange): Promise<FastifyReply> {
  const query = request.query;
  const redirectTo = context.links.checkRedirect(query.redirectTo);
  const signUpOptions = signUpOptionsOf(query);
  // Roles are checked now, while the user can still be told in this response.
  context.users.signUpRoles(signUpFields(signUpOptions));
  const connectUserId = query.connect === undefined ? undefined : await connectingUser(context, { request, token: query.connect });
  const secrets = newFlowSecrets();
  const pending: PendingRequest = { provider: settings.id, redirectTo, ...secrets, signUpOptions, ...(connectUserId === undefined ? {} : { connectUserId }) };
  const inserted = await context.pool.query<{ id: string }>('INSERT INTO auth.provider_requests (options) VALUES ($1) RETURNING id', [JSON.stringify(pending)]);
  // Stale requests are swept on write; a sign-in takes minutes at most.
  await context.pool.query(`DELETE FROM auth.provider_requests WHERE created_at < now() - make_interval(secs => $1)`, [PENDING_REQUEST_TTL_SECONDS]);
  const state = inserted.rows[0]?.id ?? '';
  let endpoints;
  try {
    endpoints = await resolveEndpoints(settings, now());
  } catch (error) {
    return failBack({ reply, context, redirectTo, error });
  }
  return reply.redirect(authorizationUrl({ settings, endpoints, redirectUri: callbackUrl(context, settings.id), state, secrets }), 302);
}

async function callback({ request, reply, context, settings, now }: Exchange): Promise<FastifyReply> {
  const query = request.query;
  const pending = await takePending(context, query.state);
  // Without a matching state there is no trusted redirectTo to send the browser back to.
  if (!pending || pending.provider !== settings.id) throw new AuthError('invalid-state');
  try {
    if (query.error !== undefined) throw new OAuthFlowError('oauth-provider-error', `${query.error}${query.error_description ? `: ${query.error_description}` : ''}`);
    if (query.code === undefined || query.code === '') throw new OAuthFlowError('oauth-provider-error', 'the provider sent no code');
    const endpoints = await resolveEndpoints(settings, now());
    const profile = await completeSignIn({ settings, endpoints, redirectUri: callbackUrl(context, settings.id), code: query.code, secrets: pending, nowMilliseconds: now() });
    const { userId, outcome } = await resolveProviderUser(context, { providerId: settings.id, profile, connectUserId: pending.connectUserId, signUpOptions: pending.signUpOptions });
    if (outcome !== 'linked-before') await context.audit.record({ action: 'auth.provider.link', actorUserId: userId, entityId: userId, details: { provider: settings.id, outcome }, request });
    const user = await context.users.get(userId);
    if (user && context.config.emailVerifiedRequired && !user.emailVerified) throw new AuthError('unverified-user');
    const session = await context.issueSession(userId);
    await context.audit.record({ action: 'auth.signin', actorUserId: userId, entityId: userId, details: { method: `provider:${settings.id}` }, request });
    return reply.redirect(context.links.redirectWith(pending.redirectTo, { refreshToken: session.refreshToken }), 302);
  } catch (error) {
    await context.audit.record({ action: 'auth.signin_failed', details: { method: `provider:${settings.id}`, reason: (error as Error).message }, request });
    return failBack({ reply, context, redirectTo: pending.redirectTo, error });
  }
}

/** Sends the browser back to the app with `error` and `errorDescription` (hasura-auth's parameter names). */
function failBack(input: { reply: FastifyReply; context: AuthContext; redirectTo: string; error: unknown }): FastifyReply {
  const { error } = input;
  const code = error instanceof OAuthFlowError || error instanceof AuthError ? error.code : 'internal-server-error';
  if (code === 'internal-server-error') input.context.log.error({ err: error }, 'oauth: provider sign-in failed');
  const description = code === 'internal-server-error' ? 'Internal server error' : (error as Error).message;
  return input.reply.redirect(input.context.links.redirectWith(input.redirectTo, { error: code, errorDescription: description }), 302);
}

async function takePending(context: AuthContext, state: string | undefined): Promise<PendingRequest | undefined> {
  if (state === undefined || !UUID.test(state)) return undefined;
  const result = await context.pool.query<{ options: PendingRequest; fresh: boolean }>(
    `DELETE FROM auth.provider_requests WHERE id = $1 RETURNING options, created_at > now() - make_interval(secs => $2) AS fresh`,
    [state, PENDING_REQUEST_TTL_SECONDS],
  );
  const row = result.rows[0];
  return row && row.fresh ? row.options : undefined;
}

/**
 * `connect` carries the signed-in user's access token: the provider gets linked to that user. A
 * linked provider is a new way in, so, as for a new security key (credential-proof.ts), a token
 * of a PAT session is refused, and so is one whose session was signed in (or elevated) more than
 * 5 minutes ago: a stolen token must not link the thief's provider account.
 */
async function connectingUser(context: AuthContext, input: { request: FastifyRequest; token: string }): Promise<string> {
  let user: AuthenticatedUser;
  try {
    user = await context.authenticateToken(input.request, input.token, { allowAnonymous: true });
  } catch (error) {
    if (error instanceof AuthError && error.code === 'unauthenticated-user') throw new AuthError('unauthenticated-user', 'connect: the access token is invalid or expired');
    throw error;
  }
  requireFreshSession(user, 'connect');
  return user.userId;
}

function signUpOptionsOf(query: Record<string, string | undefined>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (query.allowedRoles !== undefined) options.allowedRoles = query.allowedRoles.split(',').map((role) => role.trim()).filter((role) => role !== '');
  if (query.defaultRole !== undefined) options.defaultRole = query.defaultRole;
  if (query.displayName !== undefined) options.displayName = query.displayName;
  if (query.locale !== undefined) options.locale = query.locale;
  if (query.metadata !== undefined) {
    try {
      options.metadata = JSON.parse(query.metadata) as unknown;
    } catch {
      throw invalidRequest('metadata', 'must be a JSON object');
    }
  }
  return options;
}

function callbackUrl(context: AuthContext, provider: OAuthProviderId): string {
  return `${context.config.serverUrl}/signin/provider/${provider}/callback`;
}

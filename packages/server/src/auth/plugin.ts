import type { FastifyError, FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { AuthConfig } from './config';
import type { Mailer, SmsSender } from './context';
import { createAuthContext } from './create-context';
import { anonymousRoutes } from './endpoints/anonymous';
import { emailPasswordRoutes } from './endpoints/email-password';
import { personalAccessTokenRoutes } from './endpoints/personal-access-tokens';
import { serviceRoutes } from './endpoints/service';
import { tokenRoutes } from './endpoints/tokens';
import { userRoutes } from './endpoints/user';
import { verifyRoutes } from './endpoints/verify';
import { AuthError, sendAuthError } from './errors';
import { authMethodModules } from './method-modules';
import { registerAuthRoutes, type AuthRouteModule } from './routes';

/** The core's endpoints (docs/AUTH-CONTRACT.md), in registration order. */
export const CORE_ROUTE_MODULES: readonly AuthRouteModule[] = [
  serviceRoutes, emailPasswordRoutes, anonymousRoutes, tokenRoutes, personalAccessTokenRoutes, userRoutes, verifyRoutes,
];

export interface AuthPluginOptions {
  readonly pool: pg.Pool;
  readonly config: AuthConfig;
  readonly version: string;
  /** Route modules besides the core's; default: authMethodModules(). */
  readonly modules?: readonly AuthRouteModule[];
  readonly mailer?: Mailer;
  readonly sms?: SmsSender;
  readonly now?: () => number;
}

/** Mounts the auth service (hasura-auth's API) at /v1/auth. */
export async function registerAuth(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  await app.register(async (scope) => {
    const context = createAuthContext({
      pool: options.pool, config: options.config, version: options.version, log: scope.log,
      ...(options.mailer ? { mailer: options.mailer } : {}),
      ...(options.sms ? { sms: options.sms } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    acceptEmptyJson(scope);
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AuthError) return sendAuthError(reply, error, options.config.concealErrors);
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        // Fastify's own refusals (malformed JSON, body too large, bad content type) are bad requests.
        return reply.code(400).send({ status: 400, message: `The request payload is incorrect: ${error.message}`, error: 'invalid-request' });
      }
      request.log.error({ err: error }, 'auth: unexpected error');
      return reply.code(500).send({ status: 500, message: 'Internal server error', error: 'internal-server-error' });
    });
    // hasura-auth answers "OK" as a JSON string; clients JSON.parse every body.
    scope.addHook('onSend', async (_request, reply, payload) => {
      const type = reply.getHeader('content-type');
      if (typeof payload === 'string' && typeof type === 'string' && type.startsWith('text/plain')) {
        void reply.type('application/json; charset=utf-8');
        return JSON.stringify(payload);
      }
      return payload;
    });
    // Every auth request counts against the per-IP global bucket (AUTH_RATE_LIMIT_GLOBAL_*).
    scope.addHook('onRequest', async (request) => context.rateLimiter.hit(request, { bucket: 'global' }));
    // With PORT=0 the port is known only now: mailed links and the own origins follow it (listen-port.ts).
    scope.addHook('onListen', async () => {
      const address = scope.server.address();
      if (typeof address === 'object' && address !== null) options.config.listenPort.bind(address.port);
    });
    await registerAuthRoutes(scope, context, [...CORE_ROUTE_MODULES, ...(options.modules ?? authMethodModules())]);
  }, { prefix: '/v1/auth' });
}

/** Clients post some bodiless requests as `application/json`; an empty body reads as no body, not an error. */
function acceptEmptyJson(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AuthError('invalid-request', 'The request body is not valid JSON'), undefined);
    }
  });
}

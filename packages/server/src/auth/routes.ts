import type { FastifyInstance } from 'fastify';
import type { AuthContext } from './context';

/**
 * One group of endpoints under /v1/auth. `register` declares its routes on `app` (already
 * prefixed with /v1/auth, with the auth error handler) using `context` (see context.ts).
 *
 * @example
 * export const smsRouteModule: AuthRouteModule = {
 *   name: 'sms',
 *   register(app, context) {
 *     app.post('/signin/passwordless/sms', async (request) => { ...; return 'OK'; });
 *   },
 * };
 */
export interface AuthRouteModule {
  readonly name: string;
  register(app: FastifyInstance, context: AuthContext): void | Promise<void>;
}

/** Registers every module in order; two modules declaring the same route fail at start (Fastify refuses duplicates). */
export async function registerAuthRoutes(app: FastifyInstance, context: AuthContext, modules: readonly AuthRouteModule[]): Promise<void> {
  const names = new Set<string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`auth route module "${module.name}" is registered twice`);
    names.add(module.name);
    await module.register(app, context);
  }
}

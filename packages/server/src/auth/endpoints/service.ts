import type { AuthRouteModule } from '../routes';

/** GET /healthz ("OK" when the database answers) and GET /version. */
export const serviceRoutes: AuthRouteModule = {
  name: 'service',
  register(app, context) {
    app.get('/healthz', async (_request, reply) => {
      try {
        await context.pool.query('SELECT 1');
        return 'OK';
      } catch (error) {
        context.log.error({ err: error }, 'auth health check: database unreachable');
        return reply.code(503).send({ status: 503, message: 'Database unreachable', error: 'internal-server-error' });
      }
    });
    app.get('/version', async () => ({ version: context.version }));
  },
};

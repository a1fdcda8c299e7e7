import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { ServerConfig } from './config';
import { openDatabase } from './db/database';
import { buildApp } from './http/app';
import { webDistDir } from './paths';
import { readDeployedVersion } from './version';

/** A running platform; `stop()` drains HTTP, closes the pool and stops the embedded database. */
export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** The HTTP port belongs to another program. */
export class HttpPortInUseError extends Error {
  override readonly name = 'HttpPortInUseError';
}

/** Starts the whole platform in this process. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({ config, log: (message) => logger.info(message) });
  const version = readDeployedVersion();
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({ pool: database.pool, version, webDistDir, logLevel: config.logLevel });
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Whatever failed, the embedded PostgreSQL must not outlive us.
    await app?.close();
    await database.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new HttpPortInUseError(`Port ${config.port} on ${config.host} is already in use by another program. Stop it, or set PORT to a free port.`);
    }
    throw error;
  }
  const running = app;
  const address = running.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () => {
      // Shutting down twice (two signals) must not close things twice.
      stopping ??= (async () => {
        await running.close();
        await database.close();
      })();
      return stopping;
    },
  };
}

import { ConfigError } from '../config';

/**
 * The port the server answers at, for the auth settings whose defaults name it: AUTH_SERVER_URL
 * (`http://localhost:PORT/v1/auth`, the links in mail), AUTH_CLIENT_URL (its origin) and the
 * always-allowed own origins (`config.ownOrigins`). With PORT=0 the operating system picks the port
 * when the server starts listening, but the configuration is read before anything starts (a bad
 * variable must stop the start first). So those settings are read through this holder, and the
 * auth plugin's onListen hook records the bound port (plugin.ts); until then, and for any other
 * PORT, they use PORT as configured (a fixed PORT is what links must say, even when a test listens
 * elsewhere).
 *
 * Not covered: the demo world's security-key origin (`AUTH_WEBAUTHN_RP_ORIGINS`, demo-methods.ts)
 * is an environment value fixed before the start; with PORT=0 set it, or a fixed PORT, to use keys.
 */
export class ListenPort {
  private bound: number | undefined;

  constructor(readonly configured: number) {}

  /**
   * The port to put in URLs.
   * @example const port = new ListenPort(0); port.bind(43121); port.current // 43121
   */
  get current(): number {
    return this.bound ?? this.configured;
  }

  /** Records the port the server listens on; only PORT=0 takes it. */
  bind(port: number): void {
    if (this.configured === 0 && Number.isInteger(port) && port > 0 && port <= 65_535) this.bound = port;
  }
}

/** PORT as the auth service reads it (default 8080); anything but a port number names the variable. */
export function readListenPort(raw: string | undefined): ListenPort {
  const text = raw?.trim() || '8080';
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) throw new ConfigError(`PORT must be a port number from 0 to 65535, got "${text}"`);
  return new ListenPort(port);
}

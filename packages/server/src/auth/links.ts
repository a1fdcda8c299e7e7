import type { AuthConfig } from './config';
import type { Links } from './context';
import { AuthError } from './errors';

/**
 * Whether `target` is inside an allowed prefix: same scheme, host and port, and a path under the
 * prefix's path. A `*` in the prefix's host matches one DNS label (`https://*.vyuha.in`).
 * @example redirectAllowed('http://localhost:3000/verified', ['http://localhost:3000']) -> true
 */
export function redirectAllowed(target: string, prefixes: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return prefixes.some((prefix) => withinPrefix(url, prefix));
}

function withinPrefix(url: URL, prefix: string): boolean {
  const match = /^(https?):\/\/([^/]+)(\/.*)?$/.exec(prefix);
  if (!match) return false;
  const [, scheme, hostPattern = '', path = '/'] = match;
  if (url.protocol !== `${scheme}:`) return false;
  const hostRegex = new RegExp(`^${hostPattern.toLowerCase().split('*').map(escapeRegex).join('[a-z0-9-]+')}$`);
  if (!hostRegex.test(url.host.toLowerCase())) return false;
  const base = path.endsWith('/') ? path : `${path}/`;
  return url.pathname === path || url.pathname.startsWith(base) || path === '/';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Links of the context: redirect checks and the /verify URL. */
export function createLinks(config: AuthConfig): Links {
  // The server's own origins first: sign-up at http://127.0.0.1:8080 must work out of the box.
  // Read at each check: with PORT=0 they name the port bound after this is built (listen-port.ts).
  const prefixes = () => [config.clientUrl, ...config.ownOrigins, ...config.allowedRedirectUrls];
  return {
    checkRedirect(redirectTo) {
      if (redirectTo === undefined) return config.clientUrl;
      if (!redirectAllowed(redirectTo, prefixes())) throw new AuthError('redirectTo-not-allowed');
      return redirectTo;
    },
    verifyLink({ ticket, type, redirectTo }) {
      const url = new URL(`${config.serverUrl}/verify`);
      url.searchParams.set('ticket', ticket);
      url.searchParams.set('type', type);
      url.searchParams.set('redirectTo', redirectTo);
      return url.toString();
    },
    redirectWith(redirectTo, params) {
      const url = new URL(redirectTo);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },
  };
}

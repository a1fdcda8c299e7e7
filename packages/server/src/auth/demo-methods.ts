// The sign-in methods of the demo world. hasura-auth ships every optional method switched off, and
// so do we; but the demo world (`npm start` on the embedded database) is where a newcomer tries
// the product on one machine, and there every method that can work without the internet is on:
// mail and SMS go to auth.outbox, which `npx vyuha outbox` prints.
//
// On: e-mail + password, magic link, SMS code, anonymous (guest) sign-in, security keys; TOTP and
// personal access tokens are always on. Off: OAuth providers (they need the internet and an app
// registered with the provider) and the e-mailed 6-digit code (no screen offers it).
//
// Security keys: a browser accepts a relying party id only when it is a domain name that the
// page's host equals or ends with, never an IP address. So the demo's relying party is
// `localhost`: keys work at http://localhost:PORT and not at http://127.0.0.1:PORT, where the
// sign-in screen says so (GET /v1/auth/methods gives it the relying party). An AUTH_CLIENT_URL
// with a domain name keeps its own relying party (the WebAuthn settings' default).
//
// Only variables that are unset get a value: anything the operator sets wins.
import { isIP } from 'node:net';

type Environment = Readonly<Record<string, string | undefined>>;

/** The switches this file turns on in the demo world. */
export const DEMO_METHOD_SWITCHES: readonly string[] = [
  'AUTH_EMAIL_PASSWORDLESS_ENABLED', 'AUTH_SMS_PASSWORDLESS_ENABLED', 'AUTH_ANONYMOUS_USERS_ENABLED', 'AUTH_WEBAUTHN_ENABLED',
];

/**
 * `env` with the demo world's sign-in methods switched on where the variable is unset.
 * @example withDemoAuthMethods({}, { port: 8080 }).AUTH_WEBAUTHN_RP_ORIGINS // 'http://localhost:8080'
 */
export function withDemoAuthMethods(env: Environment, options: { readonly port: number }): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = { ...env };
  const unset = (name: string) => (env[name]?.trim() ?? '') === '';
  for (const name of DEMO_METHOD_SWITCHES) if (unset(name)) result[name] = 'true';
  if (!clientUrlHasDomain(env.AUTH_CLIENT_URL)) {
    if (unset('AUTH_WEBAUTHN_RP_ID')) result.AUTH_WEBAUTHN_RP_ID = 'localhost';
    if (unset('AUTH_WEBAUTHN_RP_ORIGINS')) result.AUTH_WEBAUTHN_RP_ORIGINS = `http://localhost:${options.port}`;
  }
  return result;
}

/** Whether AUTH_CLIENT_URL is set to a URL whose host is a domain name (not an IP address). */
function clientUrlHasDomain(raw: string | undefined): boolean {
  if (raw === undefined || raw.trim() === '') return false;
  try {
    const host = new URL(raw.trim()).hostname.replace(/^\[|\]$/g, '');
    return isIP(host) === 0;
  } catch {
    // readAuthConfig names the bad variable.
    return false;
  }
}

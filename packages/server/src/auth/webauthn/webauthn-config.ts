// WebAuthn settings under hasura-auth's variable names.

/** The relying party Vyuha presents to authenticators. */
export interface WebauthnSettings {
  readonly enabled: boolean;
  /** The registrable domain credentials are bound to (AUTH_WEBAUTHN_RP_ID). */
  readonly rpId: string;
  readonly rpName: string;
  /** Page origins allowed to run ceremonies (AUTH_WEBAUTHN_RP_ORIGINS, comma separated). */
  readonly origins: readonly string[];
  /** How long a challenge stays answerable, in milliseconds (AUTH_WEBAUTHN_ATTESTATION_TIMEOUT). */
  readonly timeoutMilliseconds: number;
}

/** Bad WebAuthn configuration, naming the variable. */
export class WebauthnConfigError extends Error {
  override readonly name = 'WebauthnConfigError';
}

/**
 * Reads the WebAuthn settings. Without AUTH_WEBAUTHN_RP_ID and AUTH_WEBAUTHN_RP_ORIGINS the
 * relying party is taken from AUTH_CLIENT_URL (its host name and origin).
 */
export function readWebauthnSettings(env: Readonly<Record<string, string | undefined>>): WebauthnSettings {
  const enabledRaw = env.AUTH_WEBAUTHN_ENABLED?.trim() ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(enabledRaw)) throw new WebauthnConfigError(`AUTH_WEBAUTHN_ENABLED must be true or false, got "${enabledRaw}"`);
  const enabled = enabledRaw === 'true' || enabledRaw === '1';
  const clientUrl = parseUrl(env.AUTH_CLIENT_URL?.trim() || 'http://localhost:3000', 'AUTH_CLIENT_URL');
  const origins = (env.AUTH_WEBAUTHN_RP_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
  for (const origin of origins) {
    const parsed = parseUrl(origin, 'AUTH_WEBAUTHN_RP_ORIGINS');
    if (parsed.origin !== origin.replace(/\/$/, '')) throw new WebauthnConfigError(`AUTH_WEBAUTHN_RP_ORIGINS: "${origin}" must be a bare origin (scheme://host[:port])`);
  }
  const timeoutRaw = env.AUTH_WEBAUTHN_ATTESTATION_TIMEOUT?.trim() ?? '';
  const timeoutMilliseconds = timeoutRaw === '' ? 60_000 : Number(timeoutRaw);
  if (!Number.isInteger(timeoutMilliseconds) || timeoutMilliseconds < 1000) {
    throw new WebauthnConfigError(`AUTH_WEBAUTHN_ATTESTATION_TIMEOUT must be a whole number of milliseconds >= 1000, got "${timeoutRaw}"`);
  }
  return {
    enabled,
    rpId: env.AUTH_WEBAUTHN_RP_ID?.trim() || clientUrl.hostname,
    rpName: env.AUTH_WEBAUTHN_RP_NAME?.trim() || 'Vyuha',
    origins: origins.length > 0 ? origins.map((origin) => origin.replace(/\/$/, '')) : [clientUrl.origin],
    timeoutMilliseconds,
  };
}

function parseUrl(value: string, variable: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new WebauthnConfigError(`${variable} must be a URL, got "${value}"`);
  }
}

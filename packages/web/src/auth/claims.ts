// What the app reads from the access token (docs/PRODUCT.md sections 3 and 6): the role is the token's
// default role, permissions come from `x-hasura-permissions` (quotes and outer brackets stripped,
// split on commas), the W<n>m claims give each chart window's earliest candle date.
const CLAIMS_NAMESPACE = 'https://hasura.io/jwt/claims';

export interface TokenClaims {
  readonly userId: string;
  readonly role: string;
  readonly allowedRoles: readonly string[];
  readonly permissions: readonly string[];
  /** Chart window minutes -> earliest date (`YYYY-MM-DD`). */
  readonly windowStarts: Readonly<Record<number, string>>;
  readonly isAnonymous: boolean;
  /** Epoch seconds. */
  readonly expiresAt: number;
}

function decodeSegment(segment: string): unknown {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(segment.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

/**
 * docs/PRODUCT.md section 6: the permissions claim with quotes and outer brackets stripped, split on commas;
 * a missing claim logs 'Permissions not found' and gives an empty list.
 * @example parsePermissions('{"strategy:backtest","strategy:deploy"}') // ['strategy:backtest', 'strategy:deploy']
 */
export function parsePermissions(claim: unknown): string[] {
  if (typeof claim !== 'string') {
    console.info('Permissions not found');
    return [];
  }
  const inner = claim.replace(/"/g, '').replace(/^[[{]/, '').replace(/[\]}]$/, '');
  return inner.split(',').map((permission) => permission.trim()).filter((permission) => permission !== '');
}

/** The claims of an access token (not verified: the server verifies every request). */
export function readClaims(accessToken: string): TokenClaims | undefined {
  const payloadSegment = accessToken.split('.')[1];
  if (!payloadSegment) return undefined;
  let payload: Record<string, unknown>;
  try {
    payload = decodeSegment(payloadSegment) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const hasura = payload[CLAIMS_NAMESPACE];
  if (typeof hasura !== 'object' || hasura === null) return undefined;
  const claims = hasura as Record<string, unknown>;
  const windowStarts: Record<number, string> = {};
  for (const [name, value] of Object.entries(claims)) {
    const match = /^x-hasura-w(\d+)m$/i.exec(name);
    if (match && typeof value === 'string') windowStarts[Number(match[1])] = value;
  }
  return {
    userId: String(claims['x-hasura-user-id'] ?? payload.sub ?? ''),
    role: String(claims['x-hasura-default-role'] ?? ''),
    allowedRoles: Array.isArray(claims['x-hasura-allowed-roles']) ? (claims['x-hasura-allowed-roles'] as unknown[]).map(String) : [],
    permissions: parsePermissions(claims['x-hasura-permissions']),
    windowStarts,
    isAnonymous: claims['x-hasura-user-is-anonymous'] === 'true',
    expiresAt: typeof payload.exp === 'number' ? payload.exp : 0,
  };
}

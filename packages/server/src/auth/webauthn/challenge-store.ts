import type pg from 'pg';

// Server-side WebAuthn challenges. The browser signs the challenge and echoes it in
// clientDataJSON; the verify request finds its row by that value and deletes it in the same
// statement, so every challenge can be answered once, before it expires.

/** What a challenge was handed out for. */
export type ChallengePurpose = 'signup' | 'signin' | 'add' | 'elevate';

/** A stored, unexpired challenge. */
export interface StoredChallenge {
  readonly challenge: string;
  readonly purpose: ChallengePurpose;
  readonly userId: string | null;
  readonly email: string | null;
  readonly options: Record<string, unknown>;
}

type Queryable = Pick<pg.Pool, 'query'>;

/** Stores a new challenge valid for `timeoutMilliseconds`. */
export async function saveChallenge(
  database: Queryable,
  input: { challenge: string; purpose: ChallengePurpose; userId?: string; email?: string; options?: Record<string, unknown>; timeoutMilliseconds: number },
): Promise<void> {
  await database.query(
    `INSERT INTO auth.webauthn_challenges (challenge, purpose, user_id, email, options, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6 / 1000.0))`,
    [input.challenge, input.purpose, input.userId ?? null, input.email ?? null, JSON.stringify(input.options ?? {}), input.timeoutMilliseconds],
  );
  // Unanswered challenges would pile up; sweeping on write keeps the table small without a job.
  await database.query('DELETE FROM auth.webauthn_challenges WHERE expires_at < now()');
}

/** Removes and returns the challenge if it exists for `purpose` and has not expired. */
export async function takeChallenge(database: Queryable, input: { challenge: string; purpose: ChallengePurpose }): Promise<StoredChallenge | undefined> {
  const result = await database.query<{ challenge: string; purpose: ChallengePurpose; user_id: string | null; email: string | null; options: Record<string, unknown>; expired: boolean }>(
    `DELETE FROM auth.webauthn_challenges WHERE challenge = $1 AND purpose = $2
     RETURNING challenge, purpose, user_id, email::text AS email, options, expires_at < now() AS expired`,
    [input.challenge, input.purpose],
  );
  const row = result.rows[0];
  if (!row || row.expired) return undefined;
  return { challenge: row.challenge, purpose: row.purpose, userId: row.user_id, email: row.email, options: row.options };
}

/** The challenge a WebAuthn response answers, read from its clientDataJSON; undefined if unreadable. */
export function challengeOf(credential: unknown): string | undefined {
  const response = (credential as { response?: { clientDataJSON?: unknown } } | null)?.response;
  if (typeof response?.clientDataJSON !== 'string') return undefined;
  try {
    const clientData: unknown = JSON.parse(Buffer.from(response.clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (clientData as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge !== '' ? challenge : undefined;
  } catch {
    return undefined;
  }
}

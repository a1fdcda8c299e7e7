// What a successful broker login writes, in one transaction: the day's session of the account
// that logged in, the broker's verdict on who owns the client id (migration 0014), and the audit
// trail. Several users may record the same client id; the broker's answer to a login names the
// one person who signed in, so:
//
// - the account that logged in becomes `verified` (and active again if an earlier login by
//   someone else had switched it off), its session replaced;
// - every other user's account with the same broker and client id (compared without case: Kite
//   ids are upper case) becomes `claimed_elsewhere` and inactive, and its stored session, if any,
//   is deleted: it can no longer trade, and the account page tells its owner why;
// - audit rows: `broker.login` for the session (never a token), `broker.claim_lost` for each
//   account that lost the client id.
//
// Two logins of one client id at the same moment take the same advisory lock, so the later one
// decides and no row is left half-updated.
import type pg from 'pg';

export interface VerifiedSession {
  readonly userBrokerId: string;
  readonly broker: string;
  readonly clientId: string;
  readonly token: { readonly ciphertext: Buffer; readonly nonce: Buffer; readonly keyId: string };
  /** The broker's own id of who signed in (Kite: user_id). */
  readonly brokerUserId: string;
  readonly expiresAt: Date;
  readonly actorUserId: string;
  readonly ip: string | null;
}

/** Stores the session and settles the client id's ownership; resolves with how many other accounts lost it. */
export async function storeVerifiedSession(pool: pg.Pool, session: VerifiedSession): Promise<{ readonly claimsLost: number }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('broker-login:' || $1 || ':' || upper($2)))`, [session.broker, session.clientId]);
    await client.query(
      `WITH saved AS (
         INSERT INTO broker_sessions (user_broker_id, access_token_ciphertext, access_token_nonce, access_token_key_id, broker_user_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_broker_id) DO UPDATE SET
           access_token_ciphertext = EXCLUDED.access_token_ciphertext, access_token_nonce = EXCLUDED.access_token_nonce,
           access_token_key_id = EXCLUDED.access_token_key_id, broker_user_id = EXCLUDED.broker_user_id,
           created_at = now(), expires_at = EXCLUDED.expires_at, invalidated_at = NULL, invalid_reason = NULL
         RETURNING user_broker_id, expires_at
       )
       INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after, ip)
       SELECT $7::uuid, 'broker.login', 'public.broker_sessions', user_broker_id::text,
              jsonb_build_object('broker', $8::text, 'client_id', $9::text, 'broker_user_id', $5::text,
                                 'expires_at', expires_at, 'key_id', $4::text),
              $10::inet
         FROM saved`,
      [session.userBrokerId, session.token.ciphertext, session.token.nonce, session.token.keyId, session.brokerUserId,
        session.expiresAt, session.actorUserId, session.broker, session.clientId, session.ip]);
    await client.query(
      `UPDATE user_brokers
          SET ownership = 'verified', ownership_checked_at = now(),
              active = CASE WHEN ownership = 'claimed_elsewhere' THEN true ELSE active END
        WHERE user_broker_id = $1`,
      [session.userBrokerId]);
    const lost = await client.query<{ user_broker_id: string }>(
      `WITH lost AS (
         UPDATE user_brokers
            SET ownership = 'claimed_elsewhere', ownership_checked_at = now(), active = false
          WHERE broker = $2 AND upper(client_id) = upper($3) AND user_broker_id <> $1
          RETURNING user_broker_id, user_id, client_id
       ), ended AS (
         DELETE FROM broker_sessions s USING lost WHERE s.user_broker_id = lost.user_broker_id
         RETURNING s.user_broker_id
       ), audited AS (
         INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after, ip)
         SELECT $4::uuid, 'broker.claim_lost', 'public.user_brokers', lost.user_broker_id::text,
                jsonb_build_object('user_id', lost.user_id, 'session_ended', lost.user_broker_id IN (SELECT user_broker_id FROM ended)),
                jsonb_build_object('broker', $2::text, 'client_id', lost.client_id, 'ownership', 'claimed_elsewhere', 'active', false),
                $5::inet
           FROM lost
       )
       SELECT user_broker_id::text FROM lost`,
      [session.userBrokerId, session.broker, session.clientId, session.actorUserId, session.ip]);
    await client.query('COMMIT');
    return { claimsLost: lost.rowCount ?? 0 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

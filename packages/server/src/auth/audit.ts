import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { AuditLog } from './context';

/**
 * Auth events into public.audit_log (append-only). A failure to write the trail is logged, not
 * thrown: refusing a sign-in because the audit insert failed would turn an outage into a lockout.
 */
export function createAuditLog(options: { pool: pg.Pool; log: FastifyBaseLogger }): AuditLog {
  return {
    async record(entry) {
      try {
        await (entry.client ?? options.pool).query(
          'INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after, ip) VALUES ($1, $2, $3, $4, $5, $6)',
          [entry.actorUserId ?? null, entry.action, entry.entity ?? 'auth.users', entry.entityId ?? null,
            entry.details === undefined ? null : JSON.stringify(entry.details), entry.request?.ip ?? null],
        );
      } catch (error) {
        if (entry.client) throw error;
        options.log.error({ err: error, action: entry.action }, 'auth: could not write the audit log');
      }
    },
  };
}

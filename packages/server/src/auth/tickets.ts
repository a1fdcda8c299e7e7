import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { AuthConfig } from './config';
import type { TicketType, Tickets } from './context';

const TICKET_PATTERN = /^(mfaTotp|verifyEmail|passwordReset|emailConfirmChange|passwordlessEmail):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether a string has the shape `<type>:<uuid>` for this type. @example isTicketOf('mfaTotp:00000000-0000-4000-8000-000000000000', 'mfaTotp') -> true */
export function isTicketOf(ticket: unknown, type: TicketType): ticket is string {
  return typeof ticket === 'string' && TICKET_PATTERN.test(ticket) && ticket.startsWith(`${type}:`);
}

/**
 * Tickets live in auth.users.ticket / ticket_expires_at as hasura-auth keeps them: one slot per
 * user, so a new ticket replaces the previous one. MFA tickets live 5 minutes, e-mailed ones
 * AUTH_TICKET_EXPIRES_IN (1 hour by default).
 */
export function createTickets(options: { pool: pg.Pool; config: AuthConfig }): Tickets {
  const { pool, config } = options;
  return {
    async create(userId, createOptions) {
      const ticket = `${createOptions.type}:${randomUUID()}`;
      const lifetime = createOptions.expiresInSeconds ?? (createOptions.type === 'mfaTotp' ? 300 : config.ticketExpiresIn);
      await (createOptions.client ?? pool).query(
        'UPDATE auth.users SET ticket = $2, ticket_expires_at = now() + make_interval(secs => $3) WHERE id = $1',
        [userId, ticket, lifetime],
      );
      return ticket;
    },
    async peek(ticket, type) {
      if (!isTicketOf(ticket, type)) return undefined;
      const result = await pool.query<{ id: string }>('SELECT id FROM auth.users WHERE ticket = $1 AND ticket_expires_at > now()', [ticket]);
      return result.rows[0]?.id;
    },
    async consume(ticket, type, consumeOptions = {}) {
      if (!isTicketOf(ticket, type)) return undefined;
      // One statement: two requests racing with the same ticket cannot both get the user.
      const result = await (consumeOptions.client ?? pool).query<{ id: string }>(
        'UPDATE auth.users SET ticket = NULL, ticket_expires_at = now() WHERE ticket = $1 AND ticket_expires_at > now() RETURNING id',
        [ticket],
      );
      return result.rows[0]?.id;
    },
  };
}

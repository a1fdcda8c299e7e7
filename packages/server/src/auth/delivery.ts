import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type pg from 'pg';
import type { SmtpSettings } from './config';
import type { Mailer, SmsSender } from './context';
import { renderEmail } from './email-templates';

interface OutboxRow {
  readonly channel: 'email' | 'sms';
  readonly recipient: string;
  readonly subject: string | null;
  readonly body: string;
  readonly template: string | null;
  readonly userId: string | undefined;
  readonly sentAt: 'now' | null;
  readonly error: string | null;
}

async function insertOutbox(pool: pg.Pool, row: OutboxRow): Promise<string> {
  const result = await pool.query<{ id: string }>(
    `INSERT INTO auth.outbox (channel, recipient, subject, body, template, user_id, attempts, sent_at, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END, $9) RETURNING id`,
    [row.channel, row.recipient, row.subject, row.body, row.template, row.userId ?? null, row.sentAt || row.error ? 1 : 0, row.sentAt !== null, row.error],
  );
  return result.rows[0]?.id ?? '?';
}

/**
 * E-mail: through SMTP when SMTP_HOST is set, else kept in auth.outbox (administrators read it
 * through GraphQL) with a log line naming the template and outbox id, never the link or code.
 * A failed SMTP send is logged and kept in the outbox with its error, and the request still
 * succeeds: an answer that depended on delivery would tell an attacker which accounts exist.
 */
export function createMailer(options: { pool: pg.Pool; smtp: SmtpSettings | undefined; log: FastifyBaseLogger }): Mailer {
  const { pool, smtp, log } = options;
  const transport = smtp
    ? nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    })
    : undefined;
  return {
    async sendTemplate(message) {
      const rendered = renderEmail(message);
      const row = { channel: 'email' as const, recipient: message.to, subject: rendered.subject, body: rendered.text, template: message.template, userId: message.userId };
      if (!transport || !smtp) {
        const id = await insertOutbox(pool, { ...row, sentAt: null, error: null });
        log.info({ template: message.template, outboxId: id }, 'auth: no SMTP configured, e-mail kept in auth.outbox');
        return;
      }
      try {
        await transport.sendMail({ from: smtp.sender, to: message.to, subject: rendered.subject, text: rendered.text });
      } catch (error) {
        const id = await insertOutbox(pool, { ...row, sentAt: null, error: (error as Error).message });
        log.error({ err: error, template: message.template, outboxId: id }, 'auth: SMTP send failed, e-mail kept in auth.outbox');
      }
    },
  };
}

/** The default SMS sender: every message kept in auth.outbox (no SMS provider is wired yet). */
export function createOutboxSmsSender(options: { pool: pg.Pool; log: FastifyBaseLogger }): SmsSender {
  return {
    async send(message) {
      const id = await insertOutbox(options.pool, {
        channel: 'sms', recipient: message.to, subject: null, body: message.body, template: null, userId: message.userId, sentAt: null, error: null,
      });
      options.log.info({ outboxId: id }, 'auth: no SMS provider configured, SMS kept in auth.outbox');
    },
  };
}

// `vyuha outbox [--to ADDRESS] [--limit N]`: the latest e-mails and SMS the auth service kept in
// auth.outbox (without SMTP_HOST every mail goes there, and every SMS always does), with their
// links and codes, so a newcomer running `npm start` can verify an address, follow a magic link
// or type an SMS code without a mail server.
//
// It reads the configured database: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR.
// While `npm start` runs, that PostgreSQL belongs to the server (its data folder is locked), so
// the command connects to the running one (port from its postmaster.pid, password from the
// credentials file); when nothing runs it starts the embedded database for the moment it reads.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatIstDateTime } from '@vyuha/core';
import pg from 'pg';
import { readConfig, type ServerConfig } from '../config';
import { isProcessAlive } from '../db/process-info';
import { UsageError, parseOptions, print, type CliCommand } from './command';

/** One message as the command prints it. */
export interface OutboxMessage {
  readonly createdAt: Date;
  readonly channel: 'email' | 'sms';
  readonly recipient: string;
  readonly subject: string | null;
  readonly body: string;
  readonly sentAt: Date | null;
  readonly error: string | null;
}

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

/** The newest `limit` messages (to `to` when given, case-insensitive), returned oldest first. */
export async function latestOutboxMessages(pool: pg.Pool, filter: { readonly to?: string; readonly limit: number }): Promise<OutboxMessage[]> {
  const { rows } = await pool.query<{ created_at: Date; channel: 'email' | 'sms'; recipient: string; subject: string | null; body: string; sent_at: Date | null; error: string | null }>(
    `SELECT created_at, channel, recipient, subject, body, sent_at, error
       FROM auth.outbox
      WHERE $1::text IS NULL OR lower(recipient) = lower($1)
      ORDER BY created_at DESC, id DESC
      LIMIT $2`,
    [filter.to ?? null, filter.limit]);
  return rows.reverse().map((row) => ({
    createdAt: row.created_at, channel: row.channel, recipient: row.recipient, subject: row.subject, body: row.body, sentAt: row.sent_at, error: row.error,
  }));
}

/**
 * One message as text: a header line (IST time, kind, recipient, subject), the body indented,
 * then each link on a line of its own.
 * @example formatOutboxMessage({ channel: 'sms', recipient: '+919876543210', body: 'Code 123456', ... }) // '2026-03-02 15:30:00 IST  SMS to +919876543210\n    Code 123456\n'
 */
export function formatOutboxMessage(message: OutboxMessage): string {
  const kind = message.channel === 'email' ? 'e-mail' : 'SMS';
  const subject = message.subject === null ? '' : `  "${message.subject}"`;
  const state = message.error !== null ? `  (SMTP failed: ${message.error})` : message.sentAt !== null ? '  (sent)' : '';
  const body = message.body.split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
  const links = [...message.body.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => `  link: ${match[0]}`);
  return `${formatIstDateTime(message.createdAt.getTime())} IST  ${kind} to ${message.recipient}${subject}${state}\n${body}\n${links.length > 0 ? `${links.join('\n')}\n` : ''}`;
}

/** The database to read, and how to let go of it. */
interface OutboxDatabase {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** The running embedded PostgreSQL of DATA_DIR, if one is running: its URL for the `vyuha` database. */
async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const lines = (await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !isProcessAlive(pid)) return undefined;
  const credentials = JSON.parse(await readFile(join(dataDir, 'postgres-credentials.json'), 'utf8')) as { password?: unknown };
  if (typeof credentials.password !== 'string') return undefined;
  return `postgres://vyuha:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/vyuha`;
}

async function openOutboxDatabase(config: ServerConfig): Promise<OutboxDatabase> {
  const url = config.databaseUrl ?? await runningEmbeddedUrl(config.dataDir);
  if (url !== undefined) {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    return { pool, close: () => pool.end() };
  }
  // Nothing running: start the embedded database for this read (and stop it after).
  const [{ default: pino }, { openDatabase }] = await Promise.all([import('pino'), import('../db/database')]);
  const logger = pino({ level: config.logLevel });
  const database = await openDatabase({ config, log: (message) => logger.info(message), seed: false });
  return { pool: database.pool, close: () => database.close() };
}

const USAGE = `Usage: vyuha outbox [--to ADDRESS] [--limit N]

Prints the latest e-mails and SMS kept in auth.outbox (newest last), with their links and codes.
Without SMTP_HOST every e-mail is kept there instead of being sent, and every SMS always is: this
is how to read the verification mail, a magic link or an SMS code on a machine without a mail
server. Reads the configured database (DATABASE_URL, or the embedded one under DATA_DIR, also
while \`npm start\` is running).

Options:
  --to ADDRESS   only messages to this e-mail address or phone number
  --limit N      how many messages (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})
`;

export const outboxCommand: CliCommand = {
  name: 'outbox',
  usage: USAGE,
  async run(args) {
    const { values } = parseOptions(args, { to: { type: 'string' }, limit: { type: 'string' } });
    const to = values.to?.trim();
    if (to === '') throw new UsageError('--to needs an e-mail address or phone number');
    const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${values.limit ?? ''}"`);
    const config = readConfig();
    const database = await openOutboxDatabase(config);
    try {
      const messages = await latestOutboxMessages(database.pool, { ...(to === undefined ? {} : { to }), limit });
      if (messages.length === 0) {
        print(to === undefined ? 'The outbox is empty.' : `No messages to ${to} in the outbox.`);
        return 0;
      }
      process.stdout.write(messages.map(formatOutboxMessage).join('\n'));
      return 0;
    } finally {
      await database.close();
    }
  },
};

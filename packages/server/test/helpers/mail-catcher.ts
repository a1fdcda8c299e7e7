// A real SMTP server on loopback that keeps every mail it receives, for tests of what the auth
// service sends (the auth tests and the browser tests share it).
import { SMTPServer } from 'smtp-server';

/** One received e-mail. */
export interface ReceivedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface MailCatcher {
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** Waits for the next mail to `to` arriving after `since` mails had already been received for it. */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  countFor(to: string): number;
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (no TLS, no auth) that parses each message's subject and text. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const parsed = parseMessage(Buffer.concat(chunks).toString('utf8'));
        for (const recipient of session.envelope.rcptTo) mails.push({ to: recipient.address.toLowerCase(), ...parsed });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  const countFor = (to: string): number => mails.filter((mail) => mail.to === to.toLowerCase()).length;
  return {
    port,
    mails,
    countFor,
    async waitFor(to, options = {}) {
      const since = options.since ?? 0;
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      while (Date.now() < deadline) {
        const mine = mails.filter((mail) => mail.to === to.toLowerCase());
        const mail = mine[since];
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no mail #${since + 1} to ${to} within the timeout`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Subject and text of a message. The auth service sends single-part text mails; for a multipart
 * one the first text/plain part is taken. Quoted-printable and base64 bodies are decoded.
 */
function parseMessage(raw: string): { subject: string; text: string } {
  const { head, body } = splitHead(raw);
  const subject = headerOf(head, 'Subject');
  const boundary = /boundary="?([^";]+)"?/i.exec(headerOf(head, 'Content-Type'))?.[1];
  if (boundary !== undefined) {
    for (const part of body.split(`--${boundary}`)) {
      const inner = splitHead(part.replace(/^\r\n/, ''));
      if (/^text\/plain/i.test(headerOf(inner.head, 'Content-Type'))) return { subject, text: decodeBody(inner.head, inner.body.replace(/\r\n$/, '')) };
    }
  }
  return { subject, text: decodeBody(head, body) };
}

function splitHead(raw: string): { head: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return { head: raw.replace(/\r\n[ \t]+/g, ' '), body: '' };
  return { head: raw.slice(0, split).replace(/\r\n[ \t]+/g, ' '), body: raw.slice(split + 4) };
}

function headerOf(head: string, name: string): string {
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
}

function decodeBody(head: string, body: string): string {
  const encoding = headerOf(head, 'Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'quoted-printable'
    ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))), 'latin1').toString('utf8')
    : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return text.replace(/\r\n/g, '\n');
}

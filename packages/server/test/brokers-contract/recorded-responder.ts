// A broker stand-in on 127.0.0.1 that answers from recordings: each scenario hands it the
// exchanges it expects, and it answers every request with the recorded response of the first unused
// exchange of the same method and path. It keeps what it received, so the contract suite can check
// what the adapter sent as well as what the adapter made of the answers.
//
// Rules:
// - A read (GET) may be asked again: once its exchanges are used up, the last one answers again.
//   A request that changes something (POST, PUT, DELETE) is answered once per recording; a second
//   one finds no recording and is answered 501, so a resent order shows as unrecorded.
// - A response recorded as no answer keeps the request open until the adapter gives up or the
//   responder closes.
// - The fields the suite compares are the query parameters and the body's fields together: a
//   form-encoded body, or a JSON object's top-level values as text, so a broker with JSON bodies
//   can join without another responder.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedExchange } from './venue-contract';

/** One request as the responder received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Query parameters and body fields together, as text. */
  readonly fields: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The index of the exchange that answered it; undefined when none was recorded for it. */
  readonly answeredBy: number | undefined;
}

export interface RecordedResponder {
  /** The base URL to point the adapter at (no trailing slash). */
  readonly url: string;
  /** Replaces the recordings and forgets what was received. */
  play(exchanges: readonly RecordedExchange[]): void;
  readonly received: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a responder on an ephemeral port of 127.0.0.1. */
export async function startRecordedResponder(): Promise<RecordedResponder> {
  let exchanges: readonly RecordedExchange[] = [];
  let used = new Set<number>();
  const received: ReceivedRequest[] = [];

  const pick = (method: string, path: string): number | undefined => {
    const candidates = exchanges.flatMap((exchange, index) => (exchange.request.method === method && exchange.request.path === path ? [index] : []));
    const unused = candidates.find((index) => !used.has(index));
    if (unused !== undefined) return unused;
    return method === 'GET' ? candidates.at(-1) : undefined;
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const query = Object.fromEntries(url.searchParams);
      const method = request.method ?? '';
      const answeredBy = pick(method, url.pathname);
      if (answeredBy !== undefined) used.add(answeredBy);
      received.push({
        method, path: url.pathname, query, fields: { ...query, ...bodyFields(body, request.headers['content-type']) }, headers: request.headers, body, answeredBy,
      });
      const recorded = answeredBy === undefined ? undefined : exchanges[answeredBy]?.response;
      if (recorded === undefined) {
        response.statusCode = 501;
        response.setHeader('content-type', 'text/plain');
        response.end(`no recording for ${method} ${url.pathname}`);
        return;
      }
      if ('noAnswer' in recorded) return;
      response.statusCode = recorded.status;
      for (const [name, value] of Object.entries(recorded.headers)) response.setHeader(name, value);
      response.end(recorded.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    play(next) {
      exchanges = next;
      used = new Set();
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The body's fields as text: form-encoded, or a JSON object's top-level values. */
function bodyFields(body: string, contentType: string | undefined): Record<string, string> {
  if (body === '') return {};
  if (contentType?.includes('application/json') === true) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

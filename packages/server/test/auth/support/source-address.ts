import { request as httpRequest } from 'node:http';

// Requests to the auth service from a chosen loopback address. Linux routes all of 127.0.0.0/8 to
// the loopback interface, so binding the client socket to 127.0.0.2, 127.0.0.3, ... gives the
// server (trustProxy off) a real, distinct `request.ip` per simulated machine: an office, an
// attacker, the owner at home.

// Bodies are what the server sent; tests read fields and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface SourcedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as sent (for byte-for-byte comparisons). */
  readonly raw: string;
  readonly body: Json;
  /** Wall time of the request, milliseconds. */
  readonly elapsedMs: number;
}

/** Sends one JSON request to `url` from the local address `from` (e.g. 127.0.0.2). */
export function requestFrom(from: string, url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<SourcedResponse> {
  const target = new URL(url);
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, localAddress: from,
      method: init.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: false,
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Json = raw;
        try {
          body = raw === '' ? undefined : JSON.parse(raw);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, raw, body, elapsedMs: performance.now() - started });
      });
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    if (payload !== undefined) outgoing.write(payload);
    outgoing.end();
  });
}

/** The median of some numbers. @example median([3, 1, 2]) -> 2 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

// A fake Kite Connect on 127.0.0.1 for the broker login tests: POST /session/token checked the way
// Kite documents it (form fields, X-Kite-Version 3, checksum = SHA-256 of api_key + request_token +
// api_secret) and answered with Kite's recorded payload shapes (kite-payloads.ts). A request token
// starting with "Used" is refused as Kite refuses a spent one. The real Kite is never called.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KITE_INVALID_CHECKSUM, KITE_TOKEN_INVALID, kiteSessionSuccess } from './kite-payloads';

/** One Kite Connect app: api_key -> the api_secret Kite knows and the Kite user who signs in with it. */
export type KiteApps = Readonly<Record<string, { readonly secret: string; readonly userId: string }>>;

export interface KiteRequest {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly form: Record<string, string>;
}

export interface FakeKite {
  /** http://127.0.0.1:PORT (no trailing slash): what KITE_API_URL would be. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: KiteRequest[];
  close(): Promise<void>;
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** Starts the fake with these apps; the access token it issues is `KiteAccessToken<request_token>`. */
export async function startFakeKite(apps: KiteApps): Promise<FakeKite> {
  const requests: KiteRequest[] = [];
  const server: Server = createServer((request, response) => {
    void readForm(request).then((form) => {
      requests.push({ method: request.method, url: request.url, headers: request.headers, form });
      response.setHeader('content-type', 'application/json');
      const app = apps[form.api_key ?? ''];
      const expected = app === undefined ? undefined
        : createHash('sha256').update(`${form.api_key ?? ''}${form.request_token ?? ''}${app.secret}`).digest('hex');
      const wellFormed = request.method === 'POST' && request.url === '/session/token' && request.headers['x-kite-version'] === '3'
        && request.headers['content-type'] === 'application/x-www-form-urlencoded';
      if (!wellFormed || app === undefined || form.checksum !== expected) {
        response.statusCode = 403;
        response.end(KITE_INVALID_CHECKSUM);
        return;
      }
      if (form.request_token?.startsWith('Used') === true) {
        response.statusCode = 403;
        response.end(KITE_TOKEN_INVALID);
        return;
      }
      response.end(kiteSessionSuccess({ accessToken: `KiteAccessToken${form.request_token ?? ''}`, userId: app.userId, apiKey: form.api_key ?? '' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

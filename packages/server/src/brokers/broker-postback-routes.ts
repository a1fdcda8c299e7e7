// POST /api/broker_postback/{broker}: where a broker reports order changes (Kite's postback URL,
// registered with the Kite Connect app). Anyone can call this address, so nothing is believed
// before it is verified: the body must be a Kite order whose checksum (SHA-256 of order_id +
// order_timestamp + api_secret) matches the API secret of a Zerodha account with that client id.
// A verified update is published to the workers (broker-order-updates.ts), whose venue of that
// account turns it into order events; it changes no row here. Refusals are 4xx with a reason and
// change nothing: 400 a body that is not a Kite order, 403 a checksum no account's secret
// matches, 413 a body too long, 501 a broker whose postbacks are not built.
import type { FastifyPluginAsync } from 'fastify';
import type pg from 'pg';
import { publishBrokerOrderUpdate } from './broker-order-updates';
import { decryptBrokerSecret, type BrokerSecretKey } from './broker-secrets';
import { verifyKitePostback } from './kite/kite-orders';

/** A Kite order update is about 1.5 KB; anything past this is not one. */
export const POSTBACK_BODY_LIMIT = 16 * 1024;

export interface BrokerPostbackOptions {
  readonly pool: pg.Pool;
  /** Decrypts the accounts' API secrets; without it no postback can be verified (503). */
  readonly key: BrokerSecretKey | undefined;
}

interface SecretRow {
  readonly user_broker_id: string;
  readonly api_secret_ciphertext: Buffer;
  readonly api_secret_nonce: Buffer;
  readonly api_secret_key_id: string;
}

/** Registers POST /api/broker_postback/:broker. */
export const brokerPostbackRoutes: FastifyPluginAsync<BrokerPostbackOptions> = async (app, options) => {
  // The body is read as text: the checksum is over the fields as Kite sent them, and a 19-digit
  // order id must never pass through a JavaScript number.
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit: POSTBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post<{ Params: { broker: string } }>('/api/broker_postback/:broker', { bodyLimit: POSTBACK_BODY_LIMIT }, async (request, reply) => {
    const { broker } = request.params;
    if (broker !== 'zerodha') {
      return reply.code(501).send({ error: 'not-supported', message: `postbacks from ${broker} are not handled: only Zerodha (Kite Connect) is built` });
    }
    const text = typeof request.body === 'string' ? request.body : '';
    let clientId: unknown;
    try {
      clientId = (JSON.parse(text) as { user_id?: unknown }).user_id;
    } catch {
      return reply.code(400).send({ error: 'invalid-postback', message: 'the body must be a JSON object (a Kite order update)' });
    }
    if (typeof clientId !== 'string' || !/^[A-Za-z0-9_-]{2,32}$/.test(clientId)) {
      return reply.code(400).send({ error: 'invalid-postback', message: 'postback.user_id must be a Kite client id' });
    }
    const key = options.key;
    if (key === undefined) return reply.code(503).send({ error: 'secret-key-missing', message: 'the server has no broker secret key, so it cannot verify postbacks' });
    const { rows } = await options.pool.query<SecretRow>(
      `SELECT user_broker_id, api_secret_ciphertext, api_secret_nonce, api_secret_key_id FROM user_brokers
       WHERE broker = 'zerodha' AND upper(client_id) = upper($1) AND api_secret_ciphertext IS NOT NULL
       ORDER BY (ownership = 'verified') DESC, active DESC`, [clientId]);
    let firstProblem: string | undefined;
    for (const row of rows) {
      let secret: string;
      try {
        secret = decryptBrokerSecret([key], { ciphertext: row.api_secret_ciphertext, nonce: row.api_secret_nonce, keyId: row.api_secret_key_id });
      } catch {
        continue;
      }
      const verified = verifyKitePostback(text, secret);
      if (!verified.ok) {
        firstProblem ??= verified.error;
        continue;
      }
      const published = await publishBrokerOrderUpdate(options.pool, { userBrokerId: row.user_broker_id, update: text });
      return reply.code(200).send({ status: 'ok', delivered: published });
    }
    return reply.code(403).send({ error: 'not-verified', message: firstProblem ?? `no Zerodha account with client id ${clientId} can verify this postback` });
  });
};

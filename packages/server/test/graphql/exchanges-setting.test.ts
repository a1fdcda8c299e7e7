// Issue 19 item 6, the server's half of the exchange setting: every signed-in role (and the anonymous
// visitor) reads every exchange row the preferences offer, per zone and all zones, with the
// facts of docs/PRODUCT.md sections 1 and 9 (migration 0002 holds the rows); nobody writes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROLES, type DemoRole } from '../../src/db/seed/demo-users';
import { dataOf, startSpecServer, type SpecServer } from './spec-server';

let server: SpecServer;
const tokens = {} as Record<DemoRole, string>;

const ALL_EXCHANGES = `query AllExchanges {
  exchanges(order_by: [{ zone: asc }, { exchange: asc }]) { currency locale market_close market_open symbol tz exchange zone }
}`;
const BY_ZONE = `query Exchanges($zone: String!) {
  exchanges(where: { zone: { _eq: $zone } }, order_by: { exchange: asc }) { currency locale market_close market_open symbol tz exchange }
}`;

const indian = (exchange: string, open = '09:15:00', close = '15:30:00') => ({
  currency: 'INR', locale: 'en-IN', market_open: open, market_close: close, symbol: '₹', tz: 'Asia/Kolkata', exchange, zone: 'IN',
});
const EXPECTED = [
  indian('BCD', '09:00:00', '17:00:00'), indian('BFO'), indian('BSE'), indian('CDS', '09:00:00', '17:00:00'), indian('NFO'), indian('NSE'),
  { currency: 'USD', locale: 'en-US', market_open: '08:30:00', market_close: '15:00:00', symbol: '$', tz: 'America/Chicago', exchange: 'XCBO', zone: 'US' },
];

beforeAll(async () => {
  server = await startSpecServer();
  for (const role of DEMO_ROLES) tokens[role] = await server.token(role);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the exchanges the preferences offer', () => {
  it.each(DEMO_ROLES)('%s reads all seven with their hours, currency and time zone', async (role) => {
    const data = dataOf(await server.graphql({ query: ALL_EXCHANGES }, { token: tokens[role] }));
    expect(data.exchanges).toEqual(EXPECTED);
    const us = dataOf(await server.graphql({ query: BY_ZONE, variables: { zone: 'US' } }, { token: tokens[role] }));
    expect(us.exchanges).toEqual([{ currency: 'USD', locale: 'en-US', market_open: '08:30:00', market_close: '15:00:00', symbol: '$', tz: 'America/Chicago', exchange: 'XCBO' }]);
  });

  it('the anonymous visitor reads them too', async () => {
    expect(dataOf(await server.graphql({ query: ALL_EXCHANGES }, {})).exchanges).toEqual(EXPECTED);
  });

  it('no role writes them', async () => {
    const body = await server.graphql({
      query: `mutation { update_exchanges(where: { exchange: { _eq: "NSE" } }, _set: { market_open: "09:00:00" }) { affected_rows } }`,
    }, { token: tokens.superadmin });
    expect(body.errors?.[0]?.message).toMatch(/update_exchanges/);
    const { rows } = await server.db.pool.query<{ market_open: string }>(`SELECT market_open::text FROM exchanges WHERE exchange = 'NSE'`);
    expect(rows[0]?.market_open).toBe('09:15:00');
  });
});

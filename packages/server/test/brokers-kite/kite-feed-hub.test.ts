// The feed hub of one Kite session: two runs' feeds share one socket (the server sees one
// connection), Kite is asked for the union of their tokens and told when a token is no longer
// wanted, each feed gets only what it subscribed, and the ticks carry the volume traded since the
// token's previous tick and the best time the packet offers.
import type { FeedEnd, FeedPort, FeedTick } from '@vyuha/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KiteFeedHub, KiteFeedHubs, SESSION_REFUSED_MESSAGE } from '../../src/brokers/kite/kite-feed-hub';
import type { KiteTokenLookup } from '../../src/brokers/kite/kite-feed-hub';
import { KiteTickerConnection } from '../../src/brokers/kite/kite-ticker';
import { frame, fullPacket, indexPacket, ltpPacket, quotePacket } from './ticker-frame-builders';
import { ManualTimers, T0, TestTickerServer, waitFor } from './ticker-test-support';

// Our instrument ids and Kite's tokens.
const NIFTY = { id: 11, token: 256_265 };
const NIFTY_FUT = { id: 12, token: 0x0000_4202 };
const NIFTY_CE = { id: 13, token: 0x0000_4302 };
const RELIANCE = { id: 14, token: 738_561 };
const ALL = [NIFTY, NIFTY_FUT, NIFTY_CE, RELIANCE];
const lookup: KiteTokenLookup = {
  tokenOf: (id) => ALL.find((one) => one.id === id)?.token,
  instrumentOf: (token) => ALL.find((one) => one.token === token)?.id,
};
// 2026-11-27 10:00:05 IST in unix seconds.
const TEN_AM = Math.floor(T0 / 1000) + 5;

let server: TestTickerServer;
let timers: ManualTimers;
let connection: KiteTickerConnection;
let hub: KiteFeedHub;

beforeEach(async () => {
  server = await TestTickerServer.start();
  timers = new ManualTimers();
  connection = new KiteTickerConnection({ baseUrl: server.url, apiKey: 'k', accessToken: 't', timers });
  hub = new KiteFeedHub({ connection, lookup, clock: timers });
});

afterEach(async () => {
  hub.close();
  await server.close();
});

/** Runs a feed, collecting its ticks; `end` resolves with how it ended. */
function consume(feed: FeedPort): { ticks: FeedTick[]; end: Promise<FeedEnd> } {
  const ticks: FeedTick[] = [];
  return { ticks, end: feed.run({ onTick: (tick) => { ticks.push(tick); } }) };
}

const tokensOf = (message: { v: unknown }): unknown => message.v;

describe('two feeds of one session', () => {
  it('share one socket, subscribe the union, get only their own ticks, and let tokens go when nobody wants them', async () => {
    const a = hub.feed();
    const b = hub.feed();
    expect(a.subscribe([NIFTY.id, NIFTY_FUT.id])).toEqual({ ok: true, value: undefined });
    expect(b.subscribe([NIFTY_FUT.id, NIFTY_CE.id])).toEqual({ ok: true, value: undefined });
    const runA = consume(a);
    const runB = consume(b);
    await waitFor('the connection', () => connection.state === 'open');
    await waitFor('the requests', () => server.last.messages.length === 2);
    expect(server.last.messages).toEqual([
      { a: 'subscribe', v: [NIFTY.token, NIFTY_FUT.token, NIFTY_CE.token] }, { a: 'mode', v: ['full', [NIFTY.token, NIFTY_FUT.token, NIFTY_CE.token]] },
    ]);
    server.send(frame(
      indexPacket(NIFTY.token, { price: 2_590_010, exchangeTime: TEN_AM }),
      fullPacket(NIFTY_FUT.token, { price: 2_612_340, volume: 1_000, exchangeTime: TEN_AM }),
      fullPacket(NIFTY_CE.token, { price: 12_345, volume: 500, exchangeTime: TEN_AM }),
      ltpPacket(RELIANCE.token, 141_000),
    ));
    await waitFor('the ticks', () => runA.ticks.length === 2 && runB.ticks.length === 2);
    expect(runA.ticks.map((tick) => [tick.instrumentId, tick.price])).toEqual([[NIFTY.id, 2_590_010], [NIFTY_FUT.id, 2_612_340]]);
    expect(runB.ticks.map((tick) => [tick.instrumentId, tick.price])).toEqual([[NIFTY_FUT.id, 2_612_340], [NIFTY_CE.id, 12_345]]);
    expect(runA.ticks[0]).toEqual({ instrumentId: NIFTY.id, time: TEN_AM * 1000, price: 2_590_010, volume: 0, synthetic: false });

    // A drops the future: B still wants it, so Kite is not told.
    a.unsubscribe([NIFTY_FUT.id]);
    expect([...hub.subscribedTokens]).toEqual([NIFTY.token, NIFTY_FUT.token, NIFTY_CE.token]);
    // B stops: its future and option go.
    b.stop();
    expect(await runB.end).toEqual({ reason: 'stopped' });
    await waitFor('the unsubscribe', () => server.last.messages.length === 3);
    expect(tokensOf(server.last.messages[2] as { v: unknown })).toEqual([NIFTY_FUT.token, NIFTY_CE.token]);
    expect(server.last.messages[2]?.a).toBe('unsubscribe');
    expect([...hub.subscribedTokens]).toEqual([NIFTY.token]);
    expect(server.connections).toHaveLength(1);

    hub.close();
    expect(await runA.end).toEqual({ reason: 'stopped' });
  });

  it('refuses an instrument without a Kite token, naming it, and subscribes nothing', () => {
    const feed = hub.feed();
    expect(feed.subscribe([NIFTY.id, 999])).toEqual({ ok: false, error: [{ field: 'instrumentIds[1]', message: 'instrument 999 is not served by this feed' }] });
    expect(hub.subscribedTokens.size).toBe(0);
    expect(connection.subscriptions.size).toBe(0);
  });
});

describe('the ticks a feed gets', () => {
  it('carry the volume traded since the token\'s previous tick: 0 first, 0 for an index and for LTP packets', async () => {
    const feed = hub.feed();
    feed.subscribe([NIFTY.id, NIFTY_FUT.id]);
    const run = consume(feed);
    await waitFor('the connection', () => connection.state === 'open');
    // Cumulative 1,000 -> 1,075 -> 1,075 -> (LTP) -> 1,300: 0, 75, 0, 0, 225. A lower count (a new day) starts again: 0.
    for (const bytes of [
      frame(fullPacket(NIFTY_FUT.token, { price: 2_612_340, volume: 1_000, exchangeTime: TEN_AM })),
      frame(fullPacket(NIFTY_FUT.token, { price: 2_612_400, volume: 1_075, exchangeTime: TEN_AM + 1 })),
      frame(quotePacket(NIFTY_FUT.token, { price: 2_612_400, volume: 1_075 })),
      frame(ltpPacket(NIFTY_FUT.token, 2_612_450)),
      frame(fullPacket(NIFTY_FUT.token, { price: 2_612_500, volume: 1_300, exchangeTime: TEN_AM + 3 })),
      frame(fullPacket(NIFTY_FUT.token, { price: 2_612_500, volume: 40, exchangeTime: TEN_AM + 4 })),
      frame(indexPacket(NIFTY.token, { price: 2_590_010, exchangeTime: TEN_AM })),
    ]) server.send(bytes);
    await waitFor('seven ticks', () => run.ticks.length === 7);
    expect(run.ticks.map((tick) => tick.volume)).toEqual([0, 75, 0, 0, 225, 0, 0]);
  });

  it('are timed by the exchange timestamp, else the last trade time, else the hub clock, never going back', async () => {
    const feed = hub.feed();
    feed.subscribe([NIFTY_FUT.id, RELIANCE.id]);
    const run = consume(feed);
    await waitFor('the connection', () => connection.state === 'open');
    timers.advance(4_000);
    server.send(frame(
      fullPacket(NIFTY_FUT.token, { price: 2_612_340, volume: 1, lastTradeTime: TEN_AM - 3, exchangeTime: TEN_AM }),
      fullPacket(RELIANCE.token, { price: 141_000, volume: 1, lastTradeTime: TEN_AM - 4, exchangeTime: 0 }),
      ltpPacket(RELIANCE.token, 141_005),
      // An exchange time before the future's previous tick: held at the previous time.
      fullPacket(NIFTY_FUT.token, { price: 2_612_345, volume: 2, exchangeTime: TEN_AM - 1 }),
    ));
    await waitFor('four ticks', () => run.ticks.length === 4);
    expect(run.ticks.map((tick) => [tick.instrumentId, tick.time])).toEqual([
      [NIFTY_FUT.id, TEN_AM * 1000], [RELIANCE.id, (TEN_AM - 4) * 1000], [RELIANCE.id, T0 + 4_000], [NIFTY_FUT.id, TEN_AM * 1000],
    ]);
    expect(run.ticks.every((tick) => !tick.synthetic)).toBe(true);
  });
});

describe('how feeds end', () => {
  it('end as failed when Kite refuses the session, and work again after a new login', async () => {
    const feed = hub.feed();
    feed.subscribe([NIFTY.id]);
    const run = consume(feed);
    await waitFor('the connection', () => connection.state === 'open');
    server.refuseWith = 403;
    server.last.socket.terminate();
    await waitFor('the reconnect', () => connection.state === 'reconnecting');
    timers.advance(1_000);
    expect(await run.end).toEqual({ reason: 'failed', message: SESSION_REFUSED_MESSAGE });
    expect(connection.state).toBe('session-refused');
    // A feed made now ends at once; after a new login feeds work again.
    expect(await hub.feed().run({ onTick: () => undefined })).toEqual({ reason: 'failed', message: SESSION_REFUSED_MESSAGE });
    server.refuseWith = undefined;
    hub.renewSession('t2');
    const again = hub.feed();
    again.subscribe([NIFTY.id]);
    const second = consume(again);
    await waitFor('the new connection', () => connection.state === 'open' && server.last.messages.length === 2);
    expect(server.last.query.get('access_token')).toBe('t2');
    expect(server.last.messages[0]).toEqual({ a: 'subscribe', v: [NIFTY.token] });
    server.send(frame(indexPacket(NIFTY.token, { price: 2_590_500, exchangeTime: TEN_AM })));
    await waitFor('a tick', () => second.ticks.length === 1);
    hub.close();
    expect(await second.end).toEqual({ reason: 'stopped' });
  });
});

describe('the hubs of a process', () => {
  it('give one hub per Kite user, renewing it for a new token rather than opening another', () => {
    const hubs = new KiteFeedHubs();
    let made = 0;
    const create = (): KiteFeedHub => {
      made += 1;
      return new KiteFeedHub({ connection: new KiteTickerConnection({ baseUrl: server.url, apiKey: 'k', accessToken: 't', timers }), lookup, clock: timers });
    };
    const first = hubs.hubFor({ kiteUserId: 'AB1234', accessToken: 't' }, create);
    expect(hubs.hubFor({ kiteUserId: 'AB1234', accessToken: 't' }, create)).toBe(first);
    expect(hubs.hubFor({ kiteUserId: 'AB1234', accessToken: 't-next-day' }, create)).toBe(first);
    const other = hubs.hubFor({ kiteUserId: 'CD5678', accessToken: 'u' }, create);
    expect(other).not.toBe(first);
    expect(made).toBe(2);
    hubs.closeAll();
    expect(first.connection.state).toBe('closed');
  });
});

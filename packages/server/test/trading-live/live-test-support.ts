// The LIVE tests' world: stored synthetic history of NIFTY 50 and an NSE equity (RELIANCE, its
// candles the index's scaled down, on the 5-paise tick), a trader with a Zerodha account whose
// day's session was issued by the Kite stand-in (test/kite-stand-in/), and a driver that plays a
// session's stored candles as ticks (each 1-minute candle's four-tick path, 15 s apart) to any
// number of runs: through the stand-in's ticker for LIVE runs, straight into a feed for PAPER ones,
// moving a manual clock only once every run has taken the tick.
import { isoDate, istEpochMs } from '@vyuha/core';
import { candleTickPath, serializeDeployableConfig } from '@vyuha/engine';
import type { DeployableConfig, FeedPort, FeedTick } from '@vyuha/engine';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { storeVerifiedSession } from '../../src/brokers/broker-ownership';
import { encryptBrokerSecret, generateBrokerSecretKey, type BrokerSecretKey } from '../../src/brokers/broker-secrets';
import { exchangeKiteRequestToken } from '../../src/brokers/kite/kite-http';
import { kiteSessionExpiry, kiteSessionForm } from '../../src/brokers/kite/kite-login';
import { QueuedFeed } from '../../src/trading/feeds/queued-feed';
import { KillSwitchWatch } from '../../src/trading/kill-switch-watch';
import { LiveAccounts } from '../../src/trading/live/live-accounts';
import type { LiveAccountOptions } from '../../src/trading/live/live-account';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { startKiteStandIn, type KiteStandIn } from '../kite-stand-in/stand-in';
import { indexId, storeSyntheticHistory } from '../trading-feeds/feed-test-support';
import { createTrader, strategyOf } from '../trading-runner/runner-test-support';

/** Wednesday; Tuesday 2026-11-24 is an NSE holiday. */
export const TODAY = isoDate('2026-11-25');
const HISTORY_FROM = isoDate('2026-11-09');
export const RELIANCE_TOKEN = 738_561;
export const KITE_APP = { apiKey: 'vyuhalivetest', apiSecret: 'live-test-secret-9f8e' };
/** Each world's own Kite client id (a client id claimed twice would be settled at the broker login). */
let worlds = 0;

export interface LiveWorld {
  readonly pool: pg.Pool;
  readonly userId: string;
  readonly reliance: number;
  readonly nifty: number;
  readonly userBrokerId: string;
  /** The account's Kite client id. */
  readonly clientId: string;
  readonly key: BrokerSecretKey;
  readonly standIn: KiteStandIn;
  /** The clock of everything: the stand-in's, the runs' wall clock. */
  readonly scheduler: ManualScheduler;
}

/** What every LIVE test of a database shares: the stored history of NIFTY 50 and RELIANCE. */
export interface LiveData {
  readonly reliance: number;
  readonly nifty: number;
}

/** Stores the history once per database. */
export async function createLiveData(pool: pg.Pool): Promise<LiveData> {
  await storeSyntheticHistory(pool, { from: HISTORY_FROM, to: TODAY, instruments: ['NIFTY 50'], seed: 'vyuha-live-tests' });
  const nifty = await indexId(pool, 'NIFTY 50');
  const { rows } = await pool.query<{ instrument_id: number }>(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, lot_size, tick_size_paise)
     VALUES ('NSE', 'EQ', 'equity', 'RELIANCE', 'RELIANCE INDUSTRIES', 1, 5) RETURNING instrument_id`);
  const reliance = rows[0]!.instrument_id;
  // The index's candles, a twentieth of the price on the 5-paise tick (rounding keeps open, high, low, close in order).
  await pool.query(
    `INSERT INTO candles (ts, volume, oi, instrument_id, open_paise, high_paise, low_paise, close_paise, source)
     SELECT ts, volume, oi, $2, round(open_paise / 100.0) * 5, round(high_paise / 100.0) * 5, round(low_paise / 100.0) * 5, round(close_paise / 100.0) * 5, source
     FROM candles WHERE instrument_id = $1`, [nifty, reliance]);
  return { reliance, nifty };
}

/** The world on `pool`: history, the equity, the trader, the stand-in and the day's session. */
export async function createLiveWorld(pool: pg.Pool): Promise<LiveWorld> {
  return openLiveWorld(pool, await createLiveData(pool));
}

/** A new trader with a Zerodha account, a stand-in of their own and a clock at 08:00 TODAY, logged in for the day. */
export async function openLiveWorld(pool: pg.Pool, data: LiveData): Promise<LiveWorld> {
  const { reliance, nifty } = data;
  const userId = await createTrader(pool);
  const scheduler = new ManualScheduler(istEpochMs(TODAY, '08:00'));
  worlds += 1;
  const clientId = `ZL${4320 + worlds}`;
  const standIn = await startKiteStandIn({ now: () => scheduler.now() });
  standIn.addAccount({ apiKey: KITE_APP.apiKey, apiSecret: KITE_APP.apiSecret, userId: clientId, cashPaise: 50_00_00_000_00 });
  standIn.addInstrument({
    instrumentToken: RELIANCE_TOKEN, exchangeToken: 2885, tradingSymbol: 'RELIANCE', name: 'RELIANCE INDUSTRIES', exchange: 'NSE', segment: 'NSE',
    instrumentType: 'EQ', tickSizePaise: 5, lotSize: 1,
  });
  standIn.addInstrument({
    instrumentToken: 256_265, exchangeToken: 1001, tradingSymbol: 'NIFTY 50', name: 'NIFTY 50', exchange: 'NSE', segment: 'INDICES',
    instrumentType: 'EQ', tickSizePaise: 0, lotSize: 0,
  });
  const key = generateBrokerSecretKey();
  const secret = encryptBrokerSecret(key, KITE_APP.apiSecret);
  const account = await pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id, api_key, api_secret_ciphertext, api_secret_nonce, api_secret_key_id)
     VALUES ($1, 'zerodha', $2, $3, $4, $5, $6) RETURNING user_broker_id`,
    [userId, clientId, KITE_APP.apiKey, secret.ciphertext, secret.nonce, secret.keyId]);
  const world = { pool, userId, reliance, nifty, userBrokerId: account.rows[0]!.user_broker_id, clientId, key, standIn, scheduler };
  await logIn(world);
  return world;
}

/** The day's login at the stand-in, stored as the broker login route stores it. */
export async function logIn(world: LiveWorld): Promise<string> {
  const form = kiteSessionForm({ apiKey: KITE_APP.apiKey, requestToken: world.standIn.issueRequestToken(KITE_APP.apiKey), apiSecret: KITE_APP.apiSecret });
  const session = await exchangeKiteRequestToken({ baseUrl: world.standIn.apiUrl, form });
  if (!session.ok) throw new Error(`stand-in login failed: ${session.error.reason}`);
  await storeVerifiedSession(world.pool, {
    userBrokerId: world.userBrokerId, broker: 'zerodha', clientId: world.clientId, brokerUserId: session.value.userId,
    token: encryptBrokerSecret(world.key, session.value.accessToken), expiresAt: new Date(kiteSessionExpiry(world.scheduler.now())), actorUserId: world.userId, ip: null,
  });
  return session.value.accessToken;
}

/** A strategy on RELIANCE and its run row of `mode` trading TODAY on the market (LIVE: through the world's account). */
export async function marketRun(world: LiveWorld, config: DeployableConfig, mode: 'PAPER' | 'LIVE'): Promise<string> {
  const strategyId = await strategyOf(world.pool, { userId: world.userId, instrumentId: world.reliance, config });
  await world.pool.query(`UPDATE strategies SET algo_id = 'ALGO-LIVE-TEST', mode = $2 WHERE strategy_id = $1`, [strategyId, mode]);
  const params = {
    mode, config: serializeDeployableConfig(config), instrumentId: world.reliance, intervalMinutes: config.interval, replay: null,
    ...(mode === 'LIVE' ? { userBrokerId: world.userBrokerId } : {}),
  };
  const { rows } = await world.pool.query<{ run_id: string }>(
    `INSERT INTO strategy_runs (strategy_id, user_id, kind, params, started_at) VALUES ($1, $2, $3, $4, timestamptz 'epoch' + $5 * interval '1 millisecond') RETURNING run_id`,
    [strategyId, world.userId, mode, JSON.stringify(params), istEpochMs(TODAY, '08:00')]);
  return rows[0]!.run_id;
}

/** A deployable configuration on RELIANCE (intraday, Rs 2 lakh, all in). */
export function relianceConfig(algorithmRef: { id: string; version: number }, overrides: Partial<DeployableConfig> = {}): DeployableConfig {
  return {
    algorithm: algorithmRef, legs: null, instrument: 'RELIANCE', interval: 5, type: 'intraday', investment: 2_00_000_00 as DeployableConfig['investment'],
    sizing: { kind: 'all-in' }, manual: false, ...overrides,
  } as DeployableConfig;
}

/** A run the driver waits for: the latest tick time it has taken. */
export interface TickTaker {
  readonly lastTickAt: number;
}

/** A PAPER market source the driver pushes the same ticks into. */
export function pushedMarket(instrumentId: number): { feed: () => FeedPort; push(tick: FeedTick): void } {
  const feeds: QueuedFeed[] = [];
  return {
    feed: () => {
      const feed = new QueuedFeed('live', () => new Set([instrumentId]));
      feeds.push(feed);
      return feed;
    },
    push: (tick) => {
      for (const feed of feeds) if (feed.wants(tick.instrumentId)) feed.push(tick);
    },
  };
}

/**
 * Plays TODAY's stored 1-minute candles of RELIANCE as ticks, each candle's four-tick path 15 s
 * apart: each tick goes to `send` at its time, then the driver waits until every run in `runs()`
 * has taken it. `before(time)` runs before each tick (faults). Ends past the close, so bars close on time.
 */
export async function playDay(world: LiveWorld, request: {
  readonly send: (tick: FeedTick) => void;
  readonly runs: () => readonly TickTaker[];
  readonly consumers: number;
  readonly until?: number;
  readonly before?: (time: number) => Promise<void>;
}): Promise<void> {
  const { pool, scheduler, reliance } = world;
  const { rows } = await pool.query<{ ms: string; open_paise: number; high_paise: number; low_paise: number; close_paise: number }>(
    `SELECT (extract(epoch FROM ts) * 1000)::bigint::text AS ms, open_paise, high_paise, low_paise, close_paise FROM candles
     WHERE instrument_id = $1 AND ts >= $2 AND ts < $3 ORDER BY ts`,
    [reliance, new Date(istEpochMs(TODAY, '00:00')), new Date(istEpochMs(TODAY, '23:59'))]);
  await scheduler.advanceTo(istEpochMs(TODAY, '09:14'));
  const ready = Date.now() + 60_000;
  while (request.runs().length < request.consumers && Date.now() < ready) await new Promise((resolve) => setTimeout(resolve, 20));
  if (request.runs().length < request.consumers) throw new Error(`only ${request.runs().length} of ${request.consumers} runs started`);
  // A run's feed is subscribed a moment after the run exists.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const path = new Float64Array(4);
  const until = request.until ?? Number.POSITIVE_INFINITY;
  for (const row of rows) {
    const start = Number(row.ms);
    if (start >= until) break;
    candleTickPath({ open: row.open_paise, high: row.high_paise, low: row.low_paise, close: row.close_paise }, path);
    for (let k = 0; k < 4; k += 1) {
      const time = start + k * 15_000;
      await scheduler.advanceTo(time);
      await request.before?.(time);
      request.send({ instrumentId: reliance, time, price: path[k] as number, volume: 0, synthetic: true });
      const deadline = Date.now() + 20_000;
      const waitingSince = Date.now();
      while (request.runs().some((run) => run.lastTickAt < time) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        // A run held up by the broker (a back-off, a lost answer) waits on the clock: time passes
        // meanwhile, up to just before the next tick.
        if (Date.now() - waitingSince > 200 && scheduler.now() + 100 < time + 15_000 - 100) await scheduler.advanceTo(scheduler.now() + 100);
      }
      if (request.runs().some((run) => run.lastTickAt < time)) throw new Error(`a run did not take the tick of ${new Date(time).toISOString()}`);
    }
  }
  const close = istEpochMs(TODAY, '15:30');
  for (let time = scheduler.now() + 1_000; time <= Math.min(close + 5_000, until); time += 1_000) await scheduler.advanceTo(time);
}

/** What a LIVE test file shares: its database, the world (one trader, one stand-in) and the kill switch watch. */
export interface LiveSuite {
  readonly db: TestDatabase;
  readonly world: LiveWorld;
  readonly killSwitches: KillSwitchWatch;
  /** The worker's broker accounts on this world's stand-in and clock, with `options` on top. */
  accounts(options?: Partial<Omit<LiveAccountOptions, 'userBrokerId'>>): LiveAccounts;
}

/** Registers the file's setup and teardown: a seeded database, the world, the kill switch watch. */
export function useLiveWorld(): () => LiveSuite {
  let suite: LiveSuite | undefined;
  beforeAll(async () => {
    const db = await freshDatabase({ seeded: true });
    const world = await createLiveWorld(db.pool);
    const killSwitches = await KillSwitchWatch.open({ pool: db.pool });
    suite = {
      db, world, killSwitches,
      accounts: (options = {}) => new LiveAccounts({
        pool: db.pool, keys: [world.key], kite: { apiUrl: world.standIn.apiUrl, tickerUrl: world.standIn.tickerUrl }, scheduler: world.scheduler, killSwitches,
        pollMs: 300, ...options,
      }),
    };
  }, 180_000);
  afterAll(async () => {
    await suite?.killSwitches.close();
    await suite?.world.standIn.close();
    await suite?.db.close();
  });
  return () => {
    if (suite === undefined) throw new Error('the LIVE test world is not set up (useLiveWorld at the top of the file)');
    return suite;
  };
}

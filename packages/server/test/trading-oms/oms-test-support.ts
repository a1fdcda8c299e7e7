// The OMS tests' world: a user with a broker account, an ACTIVE paper strategy and its PAPER run,
// a NIFTY futures contract (lot 65 and freeze quantity 1,800 on the test's date, from the market
// package's schedules), a manual clock on a trading morning, and an OMS on the paper venue. A
// `RecordingVenue` wraps the paper venue to count and inspect every call the OMS makes.
import { randomUUID } from 'node:crypto';
import { istEpochMs, isoDate } from '@vyuha/core';
import type { FeedTick, ModifyRequest, OrderIntent, PlaceOutcome, SlippageModel, VenueEvent, VenuePort } from '@vyuha/engine';
import type pg from 'pg';
import { ManualScheduler } from '../../src/trading/feeds/scheduler';
import { KillSwitchWatch } from '../../src/trading/kill-switch-watch';
import type { Oms } from '../../src/trading/oms/oms';
import type { RunContext } from '../../src/trading/oms/oms-types';
import { openOms } from '../../src/trading/oms/open-oms';
import { PaperVenue } from '../../src/trading/paper/paper-venue';

/** 1-Dec-2025 10:00 IST, a Monday session. */
export const T0 = istEpochMs(isoDate('2025-12-01'), '10:00:00');
export const NIFTY_LOT = 65;

export interface OmsWorld {
  readonly userId: string;
  readonly strategyId: string;
  readonly runId: string;
  readonly userBrokerId: string;
  readonly futureId: number;
  readonly run: RunContext;
}

/** Adds a user, a broker account, a paper strategy with its run, and (once per database) the NIFTY future. */
export async function createWorld(pool: pg.Pool, options: { readonly strategyMaxLossPaise?: number } = {}): Promise<OmsWorld> {
  const userId = randomUUID();
  await pool.query(`INSERT INTO auth.users (id, email, default_role) VALUES ($1, $2, 'advanced')`, [userId, `${userId}@example.com`]);
  await pool.query(`INSERT INTO users (user_id, name, tier) VALUES ($1, 'Paper trader', 'advanced')`, [userId]);
  const broker = await pool.query<{ user_broker_id: string }>(
    `INSERT INTO user_brokers (user_id, broker, client_id) VALUES ($1, (SELECT broker FROM brokers ORDER BY broker LIMIT 1), $2) RETURNING user_broker_id`,
    [userId, `PT${userId.slice(0, 8)}`]);
  const strategy = await pool.query<{ strategy_id: string }>(
    `INSERT INTO strategies (user_id, name, kind, status, mode, algo_id) VALUES ($1, 'OMS test', 'basket', 'ACTIVE', 'PAPER', 'ALGO-TEST-1') RETURNING strategy_id`,
    [userId]);
  const strategyId = strategy.rows[0]!.strategy_id;
  const run = await pool.query<{ run_id: string }>(`INSERT INTO strategy_runs (strategy_id, user_id, kind) VALUES ($1, $2, 'PAPER') RETURNING run_id`, [strategyId, userId]);
  const runId = run.rows[0]!.run_id;
  const futureId = await niftyFuture(pool);
  return {
    userId, strategyId, runId, userBrokerId: broker.rows[0]!.user_broker_id, futureId,
    run: {
      runId, userId, strategyId, userBrokerId: broker.rows[0]!.user_broker_id, algoId: 'ALGO-TEST-1',
      charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' },
      ...(options.strategyMaxLossPaise === undefined ? {} : { strategyMaxLossPaise: options.strategyMaxLossPaise }),
    },
  };
}

/** A second run of the same user and strategy (another deployment of it). */
export async function addRun(pool: pg.Pool, world: OmsWorld): Promise<RunContext> {
  const run = await pool.query<{ run_id: string }>(`INSERT INTO strategy_runs (strategy_id, user_id, kind) VALUES ($1, $2, 'PAPER') RETURNING run_id`, [world.strategyId, world.userId]);
  return { ...world.run, runId: run.rows[0]!.run_id };
}

async function niftyFuture(pool: pg.Pool): Promise<number> {
  await pool.query(
    `INSERT INTO instruments (exchange, segment, kind, trading_symbol, name, underlying_instrument_id, expiry, lot_size, tick_size_paise)
     SELECT 'NFO', 'FUT', 'future', 'NIFTY26JANFUT', 'NIFTY JAN 2026 FUT', instrument_id, '2026-01-27', 65, 10
     FROM instruments WHERE kind = 'index' AND trading_symbol = 'NIFTY'
     ON CONFLICT (exchange, trading_symbol) DO NOTHING`);
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE exchange = 'NFO' AND trading_symbol = 'NIFTY26JANFUT'`);
  return rows[0]!.instrument_id;
}

/** A venue that passes every call to the paper venue and records it; `hold` keeps `place` answers back. */
export class RecordingVenue implements VenuePort {
  readonly placed: OrderIntent[] = [];
  readonly listeners = new Set<(event: VenueEvent) => void>();
  /** Called inside `place` before the paper venue sees the order. */
  beforePlace: ((intent: OrderIntent) => Promise<void>) | undefined;
  /** While set, `place` hands the order to the paper venue but never answers (a lost reply). */
  hold = false;
  /** While set, the venue's events never reach the OMS (lost in flight, or the process is gone). */
  deaf = false;
  private placedWaiters: Array<() => void> = [];

  constructor(readonly paper: PaperVenue) {
    paper.subscribe((event) => this.deliver(event));
  }

  async place(intent: OrderIntent): Promise<PlaceOutcome> {
    await this.beforePlace?.(intent);
    this.placed.push(intent);
    const outcome = await this.paper.place(intent);
    for (const wake of this.placedWaiters.splice(0)) wake();
    if (this.hold) return new Promise<PlaceOutcome>(() => undefined);
    return outcome;
  }

  /** Resolves once the next `place` has reached the paper venue. */
  nextPlace(): Promise<void> {
    return new Promise((resolve) => this.placedWaiters.push(resolve));
  }

  cancel(request: { readonly brokerOrderId: string }): ReturnType<VenuePort['cancel']> {
    return this.paper.cancel(request);
  }

  modify(request: ModifyRequest): ReturnType<VenuePort['cancel']> {
    return this.paper.modify(request);
  }

  settled(): Promise<void> {
    return this.paper.settled();
  }

  orderBook(): ReturnType<VenuePort['orderBook']> {
    return this.paper.orderBook();
  }

  positions(): ReturnType<VenuePort['positions']> {
    return this.paper.positions();
  }

  orderByTag(tag: string): ReturnType<VenuePort['orderByTag']> {
    return this.paper.orderByTag(tag);
  }

  subscribe(listener: (event: VenueEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends an event to the OMS (again, for a duplicate). */
  deliver(event: VenueEvent): void {
    if (this.deaf) return;
    for (const listener of this.listeners) listener(event);
  }
}

/** One account's runtime pieces: the paper venue, the recording wrapper, the kill switch watch, the OMS. */
export interface AccountRig {
  readonly paper: PaperVenue;
  readonly venue: RecordingVenue;
  readonly watch: KillSwitchWatch;
  readonly oms: Oms;
  close(): Promise<void>;
}

/** Opens the paper venue (rebuilt from the rows), a kill switch watch and an OMS for the world's user, with its runs attached. */
export async function openRig(pool: pg.Pool, request: {
  readonly world: OmsWorld; readonly scheduler: ManualScheduler; readonly runs?: readonly RunContext[]; readonly slippage?: SlippageModel;
}): Promise<AccountRig> {
  const slippage = request.slippage ?? { kind: 'none' };
  const paper = await PaperVenue.open({ pool, userId: request.world.userId, clock: request.scheduler, rulesFor: () => ({ tickSizePaise: 10, slippage }) });
  const venue = new RecordingVenue(paper);
  const watch = await KillSwitchWatch.open({ pool });
  const oms = openOms({ pool, userId: request.world.userId, venue, scheduler: request.scheduler, killSwitches: watch });
  for (const run of request.runs ?? [request.world.run]) oms.attachRun(run);
  return {
    paper, venue, watch, oms,
    async close() {
      await oms.close();
      await watch.close();
    },
  };
}

/** A tick of the NIFTY future at `price` paise, `atMs`. */
export function tickOf(world: OmsWorld, request: { readonly price: number; readonly atMs: number }): FeedTick {
  return { instrumentId: world.futureId, time: request.atMs, price: request.price, volume: 0, synthetic: true };
}

export function newScheduler(): ManualScheduler {
  return new ManualScheduler(T0);
}

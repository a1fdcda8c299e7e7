// Part 2 of paper-runtime.bench.ts: many paper strategies at once on the simulated market, live-paced,
// and the bench's printing and CPU helpers.
//
// Each strategy is a PAPER run on the market run exactly as the strategy runners run one
// (runner/market-run.ts `runMarketSession`), each with its own feed of one SimulatedMarket (one
// tick a second). The market's clock is the wall clock shifted onto a past session (the session
// after the stored year), so the bench runs at any hour; it stores candles and last prices as in
// production.
//
// Measured from outside (no hook in src/): each tick object's first `push` into a consumer's queue
// (the moment the market hands it to the strategies) to each `venue.place` call made while that
// tick was being handled (AsyncLocalStorage carries the tick through the run's awaits).
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { setMaxListeners } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { istEpochMs } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { serializeDeployableConfig } from '@vyuha/engine';
import type { FeedPort, FeedTick, VenueEvent } from '@vyuha/engine';
import type pg from 'pg';
import type { QueuedFeed } from '../src/trading/feeds/queued-feed';
import { WallScheduler } from '../src/trading/feeds/scheduler';
import type { Scheduler } from '../src/trading/feeds/scheduler';
import { SimulatedMarket } from '../src/trading/feeds/simulated-market';
import { KillSwitchWatch } from '../src/trading/kill-switch-watch';
import { PaperVenue } from '../src/trading/paper/paper-venue';
import { runMarketSession } from '../src/trading/runner/market-run';
import { RELEASE } from '../src/trading/runner/replay-run';
import { algorithm, createTrader, deployable, strategyOf } from '../test/trading-runner/runner-test-support';

/** One figure as a plain line: `label: value unit (note)`. */
export function line(label: string, value: number | undefined, unit: string): void {
  const shown = value === undefined ? '' : ` ${Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1)}`;
  console.log(`${label}${shown}${unit === '' ? '' : ` ${unit}`}`);
}

/** A unit followed by a note in words: `line('x', 3, withNote('s', '(warm)'))`. */
export function withNote(unit: string, note: string): string {
  return note === '' ? unit : unit === '' ? note : `${unit} ${note}`;
}

/** The whole machine's CPU time from /proc/stat (every process: node and PostgreSQL's backends). */
export function machineCpu(): { busy: number; total: number; cores: number; since(earlier: { busy: number; total: number }): { busyPercent: number; cores: number } } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const fields = (lines[0] as string).trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  const cores = lines.filter((text) => /^cpu\d/.test(text)).length;
  const busy = total - idle;
  return {
    busy, total, cores,
    since: (earlier) => ({ busyPercent: ((busy - earlier.busy) / Math.max(1, total - earlier.total)) * 100 * cores, cores }),
  };
}

/** The machine's load averages (1, 5 min): other work on the machine colours every figure here. */
export function loadAverage(): string {
  const [one, five] = readFileSync('/proc/loadavg', 'utf8').split(' ');
  return `load average ${one} (1 min), ${five} (5 min) on this machine`;
}

/** CPU seconds of a process and its children (live ones, plus the reaped ones it has waited for). */
function processTreeCpu(rootPid: number): number | undefined {
  const hz = 100;
  const stat = (pid: number): string[] | undefined => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ');
    } catch {
      return undefined;
    }
  };
  const root = stat(rootPid);
  if (root === undefined) return undefined;
  // After the comm field: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
  let ticks = Number(root[11]) + Number(root[12]) + Number(root[13]) + Number(root[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = stat(Number(entry));
    if (fields !== undefined && Number(fields[1]) === rootPid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / hz;
}

/** A reader of the CPU seconds of the database server behind `pool` (when it runs on this machine), or undefined. */
export async function postgresCpuReader(pool: pg.Pool): Promise<() => number | undefined> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]?.pid;
  let postmaster: number | undefined;
  try {
    const text = readFileSync(`/proc/${backend}/stat`, 'utf8');
    postmaster = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    postmaster = undefined;
  }
  return () => (postmaster === undefined ? undefined : processTreeCpu(postmaster));
}

/** Counts every query the pool's clients run (pool.query goes through a client too) and the time they took, summed. */
export class QueryCounter {
  count = 0;
  ms = 0;
  onQuery: ((text: string) => () => void) | undefined;
  inFlight = 0;
  /** Per statement (its first 70 characters, whitespace folded): count and summed ms. */
  readonly byStatement = new Map<string, { count: number; ms: number }>();
  constructor(pool: pg.Pool) {
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        // Counted whether it answers by promise or by callback (pool.query passes a callback).
        const callbackAt = args.findLastIndex((arg) => typeof arg === 'function');
        const done = this.started(args[0]);
        if (callbackAt >= 0) {
          const callback = args[callbackAt] as (...results: unknown[]) => void;
          args[callbackAt] = (...results: unknown[]) => {
            done();
            callback(...results);
          };
          return query(...args);
        }
        const result = query(...args);
        if (result instanceof Promise) result.then(done, done);
        return result;
      };
    });
  }
  /** Counts a statement starting now; the returned function records its end. */
  private started(first: unknown): () => void {
    this.count += 1;
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text ?? '?';
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
    const entry = this.byStatement.get(key) ?? { count: 0, ms: 0 };
    entry.count += 1;
    this.byStatement.set(key, entry);
    const start = performance.now();
    const traced = this.onQuery?.(key);
    this.inFlight += 1;
    return () => {
      this.inFlight -= 1;
      traced?.();
      const ms = performance.now() - start;
      this.ms += ms;
      entry.ms += ms;
    };
  }

  snapshot(): { count: number; ms: number } {
    return { count: this.count, ms: this.ms };
  }

  /** Prints the statements run most since `reset`, with their counts and summed time. */
  printTop(label: string, top: number): void {
    const rows = [...this.byStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, top);
    for (const [text, { count, ms }] of rows) {
      console.log(`${label}: ${String(count).padStart(7)} x ${(ms / 1000).toFixed(1).padStart(6)} s (${(ms / count).toFixed(2).padStart(6)} ms each)  ${text}`);
    }
  }

  reset(): void {
    this.byStatement.clear();
  }
}

/** The wall clock moved by a fixed offset: market time runs at 1x from a chosen instant. */
class ShiftedWallScheduler implements Scheduler {
  private readonly wall = new WallScheduler();
  constructor(private readonly offsetMs: number) {}
  now(): number {
    return Date.now() + this.offsetMs;
  }
  sleepUntil(time: number, signal?: AbortSignal): Promise<void> {
    return this.wall.sleepUntil(time - this.offsetMs, signal);
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function distribution(label: string, values: number[], unit: string): void {
  const sorted = [...values].sort((a, b) => a - b);
  const note = `(n=${sorted.length})`;
  line(`${label} p50`, percentile(sorted, 50), withNote(unit, note));
  line(`${label} p95`, percentile(sorted, 95), unit);
  line(`${label} p99`, percentile(sorted, 99), unit);
  line(`${label} max`, sorted.at(-1) ?? Number.NaN, unit);
}


export interface LiveBenchRequest {
  readonly pool: pg.Pool;
  readonly nifty: number;
  readonly seed: string;
  /** The session continued live (after the stored history). */
  readonly date: IsoDate;
  readonly strategies: number;
  readonly minutes: number;
  readonly queries: QueryCounter;
}

/** Part 2: `strategies` paper runs on the simulated market for `minutes` of market time. */
export async function runLiveBench(request: LiveBenchRequest): Promise<void> {
  const { pool, nifty, strategies, minutes, date } = request;
  const withExits = process.env.BENCH_LIVE_EXITS !== '0';
  // BENCH_BURST=1: half the strategies order on the same ticks (a burst); by default one in ten.
  const everyBar = process.env.BENCH_BURST === '1' ? 2 : 10;
  console.log(`-- part 2: ${strategies} paper strategies on the simulated market, ${minutes} min of market at 1x`);
  console.log('what is measured: each strategy is a PAPER run on the market as the strategy runners run one (runner/market-run.ts');
  console.log('  runMarketSession: warm-up on stored sessions, the stepped kernel adopting venue exits, NIFTY traded as its near-month future');
  console.log('  priced bar by bar, one OMS on a run-scoped PaperVenue), each with its own feed of one SimulatedMarket (1 tick/s of NIFTY 50,');
  console.log('  the wall clock shifted onto a past session). Latency = the market pushing a tick to the queues -> the venue place() that tick caused.');
  // Market time starts 20 s before 10:00 IST of the session, so the first whole bar is 10:00.
  const startMarket = istEpochMs(date, '10:00') - 20_000;
  const scheduler = new ShiftedWallScheduler(startMarket - Date.now());
  const runIds: string[] = [];
  for (let index = 0; index < strategies; index += 1) {
    const userId = await createTrader(pool);
    const fast = 2 + (index % 5);
    const slow = fast + 3 + (index % 7);
    // Every `everyBar`-th strategy trades the bar's direction (an order most minutes, all of them on
    // the same tick); the rest an EMA crossover of their own periods.
    const rule = index % everyBar === 0 ? { buy: 'close > open', sell: 'close < open' }
      : { buy: `crossover(ema(close, ${fast}), ema(close, ${slow}))`, sell: `crossunder(ema(close, ${fast}), ema(close, ${slow}))` };
    const ref = await algorithm(pool, userId, rule);
    const exits = withExits ? { stopLoss: { kind: 'percent', percent: 0.05 }, target: { kind: 'percent', percent: 0.1 } } as const : {};
    const deployed = deployable(ref, { interval: 1, sizing: { kind: 'lots', lots: 1, lotSize: 75 }, ...exits });
    const strategyId = await strategyOf(pool, { userId, instrumentId: nifty, config: deployed });
    // Deployed at the market's 09:59:40, so the run trades this session from its 10:00 bar.
    const { rows } = await pool.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, params, started_at) VALUES ($1, $2, 'PAPER', $3, timestamptz 'epoch' + $4 * interval '1 millisecond') RETURNING run_id`,
      [strategyId, userId, JSON.stringify({ mode: 'PAPER', config: serializeDeployableConfig(deployed), instrumentId: nifty, intervalMinutes: 1, replay: null }), startMarket]);
    runIds.push(rows[0]!.run_id);
  }
  console.log(`strategies: one in ${everyBar} trades the bar's direction (close > open, all on the same ticks${everyBar === 2 ? ', BENCH_BURST=1' : '; BENCH_BURST=1 for one in 2'}), the rest EMA crossovers (fast 2-6, slow fast+3..fast+9); 1-minute bars, intraday, 1 lot, ${withExits ? 'stop 0.05% (SL-M) and target 0.1% (LIMIT)' : 'no stop or target (BENCH_LIVE_EXITS=0)'}`);

  const market = new SimulatedMarket({ pool, scheduler, log: (message) => console.log(`  market: ${message}`), seed: request.seed, instruments: ['NIFTY 50'] });
  const killSwitches = await KillSwitchWatch.open({ pool });
  await market.start();
  await market.flushed();
  // The tick a strategy is handling, kept across its awaits: each venue.place is that tick's order.
  const handlingTick = new AsyncLocalStorage<FeedTick>();
  const traceStore = new AsyncLocalStorage<{ pushed: number; steps: string[] }>();
  const traces: Array<{ ms: number; steps: string[] }> = [];
  const traceOn = process.env.BENCH_TRACE === '1';
  const timeline: Array<[number, string]> = [];
  let traceId = 0;
  const step = (label: string): void => {
    const store = traceStore.getStore();
    if (traceOn && measuring) timeline.push([performance.now(), `${store === undefined ? '?' : (store as { id?: number }).id} ${label}`]);
    if (store !== undefined) store.steps.push(`${(performance.now() - store.pushed).toFixed(1)} ${label}`);
  };
  if (traceOn) {
    const wrap = (proto: Record<string, unknown>, name: string): void => {
      const original = proto[name] as (...args: unknown[]) => unknown;
      proto[name] = function traced(this: unknown, ...args: unknown[]) {
        step(`> ${name}${name === 'placeOrder' ? ` pool total ${pool.totalCount} idle ${pool.idleCount} waiting ${pool.waitingCount} in flight ${request.queries.inFlight}` : ''}`);
        const result = original.apply(this, args);
        if (name === 'moveClock') step(result === undefined ? '  clock moved' : '  clock advancing');
        if (result instanceof Promise) result.then(() => step(`< ${name}`), () => step(`< ${name} (failed)`));
        return result;
      };
    };
    const { Oms } = await import('../src/trading/oms/oms');
    const { PaperRun } = await import('../src/trading/runner/paper-run');
    for (const name of ['placeOrder', 'cancelOrder', 'modifyOrder', 'markToMarket', 'settled', 'apply', 'enqueue', 'sendInOrder', 'startKnownSend', 'placeWithTimeout', 'views', 'instrument']) wrap(Oms.prototype as unknown as Record<string, unknown>, name);
    for (const name of ['moveClock', 'closeBar', 'openBar', 'sendKernelFills', 'cancelStaleProtection', 'cancelProtection', 'protect', 'markClosedBar', 'tickVenue', 'place'])
      wrap(PaperRun.prototype as unknown as Record<string, unknown>, name);
    request.queries.onQuery = (text: string) => {
      const started = performance.now();
      timeline.push([started, `q> ${text.slice(0, 50)}`]);
      return () => timeline.push([performance.now(), `q< ${(performance.now() - started).toFixed(1)} ms ${text.slice(0, 50)}`]);
    };
  }
  // BENCH_TRACE: the event loop's stalls (a 1 ms timer late by more than 3 ms) go on the timeline too.
  let loopLast = performance.now();
  const loopProbe = traceOn ? setInterval(() => {
    const now = performance.now();
    if (measuring && now - loopLast > 4) timeline.push([now, `event loop: a 1 ms timer ran ${(now - loopLast).toFixed(1)} ms after the last`]);
    loopLast = now;
  }, 1) : undefined;
  const pushedAt = new WeakMap<object, number>();
  const latencies: number[] = [];
  const chained: number[] = [];
  const latencyByType = new Map<string, number[]>();
  const queueWaits: number[] = [];
  const handling: number[] = [];
  let measuring = false;
  // A stop or target is placed once its entry's fill is recorded (a square-off order must reduce a
  // recorded position): its latency is counted from the venue's fill, beside the chain from the tick.
  const lastFillAt = new WeakMap<PaperVenue, number>();
  const fillToProtective: number[] = [];
  const emit = (PaperVenue.prototype as unknown as { emit: (event: VenueEvent) => void }).emit;
  (PaperVenue.prototype as unknown as { emit: (event: VenueEvent) => void }).emit = function timed(this: PaperVenue, event: VenueEvent) {
    if (event.kind === 'fill') lastFillAt.set(this, performance.now());
    emit.call(this, event);
  };
  const place = PaperVenue.prototype.place;
  PaperVenue.prototype.place = function measured(this: PaperVenue, intent) {
    const tick = handlingTick.getStore();
    const pushed = tick === undefined ? undefined : pushedAt.get(tick);
    if (measuring && pushed !== undefined) {
      const ms = performance.now() - pushed;
      const protective = intent.orderType !== 'MARKET';
      (protective ? chained : latencies).push(ms);
      const store = traceStore.getStore();
      if (store !== undefined && !protective) traces.push({ ms, pushed: store.pushed, steps: [...store.steps, `${ms.toFixed(1)} PLACE ${intent.orderType}`] } as { ms: number; steps: string[] });
      step(`PLACE ${intent.orderType}`);
      latencyByType.set(intent.orderType, [...(latencyByType.get(intent.orderType) ?? []), ms]);
      const filled = lastFillAt.get(this);
      if (protective && filled !== undefined) fillToProtective.push(performance.now() - filled);
    }
    return place.call(this, intent);
  };
  const source = {
    feed: (): FeedPort => {
      const feed = market.feed() as QueuedFeed;
      const push = feed.push.bind(feed);
      feed.push = (tick: FeedTick) => {
        if (!pushedAt.has(tick)) pushedAt.set(tick, performance.now());
        push(tick);
      };
      const run = feed.run.bind(feed);
      feed.run = (sink) => run({
        onTick: (tick) => {
          const started = performance.now();
          const pushed = pushedAt.get(tick);
          if (measuring && pushed !== undefined) queueWaits.push(started - pushed);
          return traceStore.run({ pushed: pushed ?? started, steps: [], id: traceId++ } as { pushed: number; steps: string[] }, () => handlingTick.run(tick, async () => {
            await sink.onTick(tick);
            if (measuring) handling.push(performance.now() - started);
          }));
        },
      });
      return feed;
    },
  };
  const release = new AbortController();
  // One signal ends every run: each listens on it.
  setMaxListeners(0, release.signal);
  const setupStart = performance.now();
  const sessions = runIds.map((runId) => runMarketSession({ pool, runId, market: source, scheduler, killSwitches, signal: release.signal })
    .catch((error: unknown) => ({ failed: `${runId}: ${(error as Error).message}` })));
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  // Measure from 10:00 IST (the first whole bar) for `minutes` of market.
  await scheduler.sleepUntil(istEpochMs(date, '10:00') - 500);
  line('setup of the runs (warm-up on stored sessions, OMS, venue) until 10:00 market time', (performance.now() - setupStart) / 1000, 's');
  measuring = true;
  const profiler = await startProfile();
  loopDelay.enable();
  const postgresCpu = await postgresCpuReader(pool);
  const statementStats = process.env.BENCH_PGSS === '1';
  if (statementStats) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
  const postgres0 = postgresCpu();
  const queries0 = request.queries.snapshot();
  request.queries.reset();
  const cpu0 = process.cpuUsage();
  const machine0 = machineCpu();
  console.log(`live: at the start of the window: ${loadAverage()}`);
  const wall0 = performance.now();
  await scheduler.sleepUntil(istEpochMs(date, '10:00') + minutes * 60_000 + 2_000);
  measuring = false;
  if (loopProbe !== undefined) clearInterval(loopProbe);
  await profiler?.stop();
  loopDelay.disable();
  const wall = (performance.now() - wall0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machine = machineCpu().since(machine0);
  const postgres1 = postgresCpu();
  const queries1 = request.queries.snapshot();
  console.log(`live: at the end of the window: ${loadAverage()}`);
  release.abort(RELEASE);
  const ended = await Promise.all(sessions);
  PaperVenue.prototype.place = place;
  (PaperVenue.prototype as unknown as { emit: (event: VenueEvent) => void }).emit = emit;
  await market.stop();
  await killSwitches.close();
  const failures = ended.flatMap((outcome) => ('failed' in outcome ? [outcome.failed] : []));

  const { rows } = await pool.query<{ orders: number; fills: number; modifies: number; cancelled: number }>(
    `SELECT count(*)::int AS orders, count(*) FILTER (WHERE status = 'FILLED')::int AS fills, coalesce(sum(modify_count), 0)::int AS modifies,
            count(*) FILTER (WHERE status = 'CANCELLED')::int AS cancelled FROM orders WHERE run_id = ANY($1::uuid[])`, [runIds]);
  const counts = rows[0]!;
  line('live: measured window', wall, withNote('s of wall time', `(${minutes} min of market from 10:00 IST ${date}, ticks handled ${handling.length} = ${strategies} strategies x ~1/s)`));
  line('live: orders (whole run, from the database)', counts.orders, withNote('orders', `(filled ${counts.fills}, cancelled ${counts.cancelled}, modified ${counts.modifies} times)`));
  line('live: database queries in the window', queries1.count - queries0.count, withNote('queries', `(${((queries1.count - queries0.count) / wall).toFixed(1)}/s; mean ${((queries1.ms - queries0.ms) / Math.max(1, queries1.count - queries0.count)).toFixed(2)} ms each)`));
  if (statementStats) {
    const { rows: top } = await pool.query<{ calls: number; total: number; mean: number; query: string }>(
      `SELECT calls::int, total_exec_time::float8 AS total, mean_exec_time::float8 AS mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 20`);
    for (const row of top) console.log(`live: server time by statement: ${String(row.calls).padStart(6)} x ${row.mean.toFixed(3).padStart(8)} ms = ${row.total.toFixed(1).padStart(8)} ms  ${row.query}`);
  }
  if (process.env.BENCH_QUERIES === '1') request.queries.printTop('live: top statements by summed time', 16);
  if (traceOn) console.log(`tick-to-order of MARKET orders in time order: ${latencies.map((ms) => ms.toFixed(0)).join(' ')}`);
  if (traceOn) {
    // BENCH_TRACE_ORDER=n: the timeline around the n-th order (0 = the first), else around the slowest.
    const nth = process.env.BENCH_TRACE_ORDER;
    const worst = (nth === undefined ? [...traces].sort((a, b) => b.ms - a.ms)[0] : traces[Number(nth)]) as { ms: number; pushed: number } | undefined;
    if (worst !== undefined) {
      console.log('timeline around the slowest order (ms from its tick push; run trace id; event):');
      for (const [at, label] of timeline) if (at >= worst.pushed - 5 && at <= worst.pushed + worst.ms + 5) console.log(`  ${(at - worst.pushed).toFixed(1).padStart(7)} ${label}`);
    }
  }
  if (traceOn) for (const trace of [...traces.sort((a, b) => b.ms - a.ms).slice(0, 2), ...traces.slice(-2)]) console.log(`trace ${trace.ms.toFixed(1)} ms:\n  ${trace.steps.join('\n  ')}`);
  distribution('live: tick-to-order latency, orders a tick decides (market push -> venue.place; MARKET entries, exits, square-offs)', latencies, 'ms');
  line('live: tick-to-order p99 budget <= 50 ms:', undefined, withNote('', latencies.length === 0 ? 'NO ORDERS MEASURED' : percentile([...latencies].sort((a, b) => a - b), 99) <= 50 ? 'met' : 'NOT met'));
  distribution('live: fill-to-order latency of stops and targets (the entry\'s venue fill -> their venue.place)', fillToProtective, 'ms');
  distribution('live: tick-to-order of stops and targets, the whole chain (tick -> entry -> its fill recorded -> stop and target)', chained, 'ms');
  for (const [type, values] of latencyByType) distribution(`live: tick-to-order, ${type} orders`, values, 'ms');
  distribution('live: queue wait (market push -> the strategy\'s handler starts)', queueWaits, 'ms');
  distribution('live: one tick handled by one run (onTick, all awaits)', handling, 'ms');
  line('live: node process CPU', ((cpu.user + cpu.system) / 1e6 / wall) * 100, withNote('% of one core', `(${(((cpu.user + cpu.system) / 1e6 / wall) * 50).toFixed(1)} % of 2 cores)`));
  if (postgres0 !== undefined && postgres1 !== undefined) {
    const pgPercent = ((postgres1 - postgres0) / wall) * 100;
    line('live: PostgreSQL server CPU (postmaster and its processes)', pgPercent, withNote('% of one core', `(${(pgPercent / 2).toFixed(1)} % of 2 cores)`));
    const both = pgPercent + ((cpu.user + cpu.system) / 1e6 / wall) * 100;
    line('live: node + PostgreSQL CPU', both, withNote('% of one core', `(${(both / 2).toFixed(1)} % of 2 cores)`));
  }
  line('live: whole machine CPU (node + PostgreSQL + the rest)', machine.busyPercent, withNote(`% of one core`, `(${(machine.busyPercent / machine.cores).toFixed(1)} % of ${machine.cores} cores)`));
  // Node's histogram records the whole 10 ms sampling interval: the delay is what exceeds it.
  const delay = (ns: number): number => Math.max(0, ns / 1e6 - 10);
  line('live: event-loop delay p50', delay(loopDelay.percentile(50)), withNote('ms', '(monitorEventLoopDelay, 10 ms resolution, the interval subtracted)'));
  line('live: event-loop delay p99', delay(loopDelay.percentile(99)), 'ms');
  line('live: event-loop delay max', delay(loopDelay.max), 'ms');
  line('live: runs that failed', failures.length, 'runs');
  for (const failure of failures.slice(0, 5)) console.log(`  ${failure}`);
}

/** BENCH_PROFILE=FILE: a CPU profile of the measured window only (node:inspector), written to FILE (open it in Chrome's DevTools). */
async function startProfile(): Promise<{ stop(): Promise<void> } | undefined> {
  const file = process.env.BENCH_PROFILE;
  if (file === undefined || file === '') return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> => new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result)));
  });
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = await post('Profiler.stop') as { profile: unknown };
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`live: CPU profile of the window written to ${file}`);
    },
  };
}

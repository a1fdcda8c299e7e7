/**
 * Drives the abuse shapes against a server listening in this process, with the client in a
 * process of its own (abuse-client-process.ts) that builds and sends the bodies: the CPU time
 * this process spends while a request is in flight (process.cpuUsage, every thread of it, the
 * garbage collector's included) is then the server's work for that request, one request at a
 * time. Shared by abuse-http.test.ts and bench/graphql-abuse.bench.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Answer {
  readonly status: number;
  /** The answer's text (its first 200,000 characters). */
  readonly body: string;
  /** CPU time of this process while the request was in flight (ms). */
  readonly serverMs: number;
}

export interface HealthFigures {
  /** Slowest /healthz answer, the median and the 95th percentile (ms), polls, and answers that were not 200. */
  readonly slowest: number;
  readonly p50: number;
  readonly p95: number;
  readonly polls: number;
  readonly failures: number;
}

export interface AbuseClient {
  /** Posts a variant (`tag` in a leading comment) of abuse shape number `shape` (abuseShapes() order). */
  postShape(shape: number, tag: string): Promise<Answer>;
  post(text: string, headers?: Record<string, string>): Promise<Answer>;
  /** Polls /healthz every 10 ms until stopped. */
  startHealth(): Promise<void>;
  stopHealth(): Promise<HealthFigures>;
  close(): Promise<void>;
}

export async function startAbuseClient(origin: string): Promise<AbuseClient> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./abuse-client-process.ts', import.meta.url)), [origin], {
    execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const ready = new Promise<void>((resolve) => waiting.set(-1, () => resolve()));
  let nextId = 0;
  child.on('message', (message: Record<string, unknown> & { id: number }) => {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  await ready;
  const ask = (message: Record<string, unknown>): Promise<Record<string, unknown>> => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    child.send({ ...message, id });
  });
  const measured = async (message: Record<string, unknown>): Promise<Answer> => {
    const before = process.cpuUsage();
    const reply = await ask(message);
    const used = process.cpuUsage(before);
    return { status: reply.status as number, body: reply.body as string, serverMs: (used.user + used.system) / 1000 };
  };
  return {
    postShape: (shape, tag) => measured({ shape, tag }),
    post: (text, headers = {}) => measured({ text, headers }),
    async startHealth() {
      await ask({ health: `${origin}/healthz` });
    },
    async stopHealth() {
      const reply = await ask({ stopHealth: true });
      return { slowest: reply.slowest as number, p50: reply.p50 as number, p95: reply.p95 as number, polls: reply.polls as number, failures: reply.failures as number };
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** Samples the heap every 10 ms and watches the event loop's longest stall, until stopped. */
export function watchProcess(): { stop(): { heapPeakBytes: number; longestStallMs: number } } {
  let heapPeakBytes = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    heapPeakBytes = Math.max(heapPeakBytes, process.memoryUsage().heapUsed);
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  return {
    stop() {
      clearInterval(sampler);
      delay.disable();
      heapPeakBytes = Math.max(heapPeakBytes, process.memoryUsage().heapUsed);
      return { heapPeakBytes, longestStallMs: delay.max / 1e6 };
    },
  };
}

/** The same body with a different leading comment in each query (no cache answers it). */
export function variantOf(text: string, tag: string): string {
  return text.replaceAll('"query":"', `"query":"#${tag}\\n`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The outside client of the abuse tests and benchmark, as a process of its own (abuse-client.ts
 * starts it with `node --import tsx`): it builds and sends the hostile bodies itself, so none of
 * that work is counted in the server process's CPU time, which the caller measures.
 * Messages in (IPC): { id, shape, tag } posts a variant of abuse shape number `shape`;
 * { id, text, headers } posts a body; { id, health } starts polling that URL every 10 ms;
 * { id, stopHealth } stops. Messages out: { id, status, body } or { id, slowest, p50, p95, polls, failures }.
 */
import { abuseShapes } from './abuse-shapes';

interface Polling {
  running: boolean;
  latencies: number[];
  failures: number;
  done?: Promise<void>;
}

const origin = process.argv[2] ?? '';
const shapes = abuseShapes();
let polling: Polling | undefined;

function variantOf(text: string, tag: string): string {
  return text.replaceAll('"query":"', `"query":"#${tag}\\n`);
}

function poll(url: string): Polling {
  const state: Polling = { running: true, latencies: [], failures: 0 };
  state.done = (async () => {
    while (state.running) {
      const started = performance.now();
      try {
        const response = await fetch(url);
        await response.text();
        if (response.status !== 200) state.failures += 1;
      } catch {
        state.failures += 1;
      }
      state.latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return state;
}

async function post(body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(`${origin}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

process.on('message', (message: { id: number; shape?: number; tag?: string; text?: string; headers?: Record<string, string>; health?: string; stopHealth?: boolean }) => {
  void (async () => {
    if (message.health !== undefined) {
      polling = poll(message.health);
      process.send?.({ id: message.id });
      return;
    }
    if (message.stopHealth) {
      const state = polling;
      polling = undefined;
      if (state) {
        state.running = false;
        await state.done;
      }
      const sorted = [...(state?.latencies ?? [])].sort((a, b) => a - b);
      const at = (fraction: number): number => sorted[Math.max(0, Math.ceil(sorted.length * fraction) - 1)] ?? 0;
      process.send?.({ id: message.id, slowest: sorted.at(-1) ?? 0, p50: at(0.5), p95: at(0.95), polls: sorted.length, failures: state?.failures ?? 0 });
      return;
    }
    const text = message.shape !== undefined ? variantOf(shapes[message.shape]?.text ?? '', message.tag ?? '') : (message.text ?? '');
    const answer = await post(text, message.headers ?? {});
    // Only the head of a long answer comes back: the caller reads status and error codes.
    process.send?.({ id: message.id, status: answer.status, body: answer.body.length > 200_000 ? answer.body.slice(0, 200_000) : answer.body });
  })();
});
process.send?.({ id: -1 });

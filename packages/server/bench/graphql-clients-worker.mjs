// WebSocket subscribers for graphql-subscriptions.bench.ts, in a worker thread.
//   mode 'graphql': one graphql-ws client per entry of `tokens`, each subscribed to `query`.
//   mode 'raw':     `count` plain ws connections to `url` (the reference broadcast).
// Posts {type: 'ready'} once every subscriber has its first message, then for each round
// {type: 'round', lastAt, received} when every subscriber has one more message (times are
// performance.timeOrigin + performance.now(), comparable across threads).
import { createClient } from 'graphql-ws';
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';

const { mode, url, tokens, query, count } = workerData;
const total = mode === 'graphql' ? tokens.length : count;
const now = () => performance.timeOrigin + performance.now();
const seen = new Uint32Array(total);
let round = 0;
let reached = 0;
let lastAt = 0;

function received(index) {
  seen[index] += 1;
  if (seen[index] !== round + 1) return;
  reached += 1;
  lastAt = now();
  if (reached < total) return;
  if (round === 0) parentPort.postMessage({ type: 'ready' });
  else parentPort.postMessage({ type: 'round', lastAt, received: reached });
  round += 1;
  reached = 0;
}

async function openGraphql(index) {
  const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { headers: { Authorization: `Bearer ${tokens[index]}` } }, retryAttempts: 0 });
  client.subscribe({ query }, { next: () => received(index), error: (error) => parentPort.postMessage({ type: 'error', error: String(error?.message ?? JSON.stringify(error)) }), complete: () => undefined });
}

async function openRaw(index) {
  const socket = new WebSocket(url);
  socket.on('message', () => received(index));
  await new Promise((resolve) => socket.on('open', resolve));
}

// Connect in groups so 1,000 handshakes do not arrive in one burst.
for (let start = 0; start < total; start += 50) {
  const group = [];
  for (let index = start; index < Math.min(total, start + 50); index += 1) group.push(mode === 'graphql' ? openGraphql(index) : openRaw(index));
  await Promise.all(group);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
if (mode === 'raw') parentPort.postMessage({ type: 'connected' });

// A keep-alive HTTP/1.1 load generator for the GraphQL benchmarks, run in a worker thread so
// its event loop does not share the server's. Node's http client costs more CPU per request
// than the server under test, so this one writes prebuilt request bytes on raw sockets and
// reads responses by Content-Length (the servers measured never use chunked encoding for
// these answers). N connections each send POSTs back to back for the given duration; the
// requests rotate through the given bodies and headers.
//   workerData: { port, path, requests: [{ body, headers }], connections, durationMs }
//   posts: { count, errors, latencies (Float64Array of ms), firstBody }
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port, path, requests, connections, durationMs } = workerData;
const wire = requests.map((item) => {
  const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(item.body), connection: 'keep-alive', ...item.headers };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n${item.body}`);
});
const latencies = [];
let errors = 0;
let firstBody;
let next = 0;
const deadline = performance.now() + durationMs;

function run() {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    let buffer = Buffer.alloc(0);
    let started = 0;
    const send = () => {
      if (performance.now() >= deadline) {
        socket.end();
        resolve();
        return;
      }
      started = performance.now();
      socket.write(wire[next % wire.length]);
      next += 1;
    };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const headEnd = buffer.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buffer.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 'NaN');
        if (!Number.isFinite(length)) {
          errors += 1;
          socket.destroy();
          resolve();
          return;
        }
        if (buffer.length < headEnd + 4 + length) return;
        const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
        buffer = buffer.subarray(headEnd + 4 + length);
        latencies.push(performance.now() - started);
        if (firstBody === undefined) firstBody = body;
        if (!head.startsWith('HTTP/1.1 200') || body.startsWith('{"errors"')) errors += 1;
        send();
      }
    });
    socket.on('error', () => {
      errors += 1;
      resolve();
    });
  });
}

await Promise.all(Array.from({ length: connections }, run));
parentPort.postMessage({ count: latencies.length, errors, latencies: Float64Array.from(latencies), firstBody });

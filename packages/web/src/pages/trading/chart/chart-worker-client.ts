// The page side of the chart worker: one worker per page, created on first use, requests matched
// to answers by id. Lives outside React so any component (the chart page, the algorithm editor's
// signal preview) can ask without owning the worker.
import type { ChartCandles } from './chart-candles';
import type { ChartWorkerRequest, ChartWorkerResponse, IndicatorsResult } from './chart-worker-protocol';
import type { SignalsResult } from './signal-marks';

type Pending = (response: ChartWorkerResponse) => void;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function chartWorker(): Worker {
  if (worker !== undefined) return worker;
  const created = new Worker(new URL('./chart.worker.ts', import.meta.url), { type: 'module', name: 'chart' });
  created.addEventListener('message', (event: MessageEvent<ChartWorkerResponse>) => {
    const resolve = pending.get(event.data.id);
    pending.delete(event.data.id);
    resolve?.(event.data);
  });
  created.addEventListener('error', (event) => {
    // A worker that fails to load or throws outside a request: fail every waiting request, start afresh next time.
    const message = event.message || 'The chart worker failed';
    for (const [id, resolve] of pending) resolve({ id, kind: 'signals', result: { ok: false, error: message } });
    pending.clear();
    created.terminate();
    worker = undefined;
  });
  worker = created;
  return created;
}

type RequestBody = ChartWorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

function ask(body: RequestBody): Promise<ChartWorkerResponse> {
  return new Promise((resolve) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, resolve);
    chartWorker().postMessage({ ...body, id });
  });
}

/** An algorithm's signal marks over the candles, computed in the worker. */
export async function requestSignals(graph: unknown, candles: ChartCandles): Promise<SignalsResult> {
  const response = await ask({ kind: 'signals', graph, candles });
  return response.result as SignalsResult;
}

/** An indicator group's lines over the candles, computed in the worker. */
export async function requestIndicators(indicators: unknown, candles: ChartCandles): Promise<IndicatorsResult> {
  const response = await ask({ kind: 'indicators', indicators, candles });
  return response.result as IndicatorsResult;
}

// Signals of an algorithm graph over chart candles, computed in the chart's Web Worker (the page
// never stalls): `computeSignals` for one-off calls, `useSignals` for components. The algorithm
// editor's signal preview and the /chart page both use it.
import { useEffect, useState } from 'react';
import type { ChartCandles, SignalMark } from './chart-candles';
import { requestSignals } from './chart-worker-client';

export type { ChartCandles, SignalMark } from './chart-candles';

/**
 * The buy, sell and exit marks of `graph` (an algorithm document, as an object or JSON text) over
 * the candles; `ok: false` with the engine's validation messages when the graph does not compile.
 */
export function computeSignals(graph: unknown, candles: ChartCandles): Promise<{ ok: true; signals: SignalMark[] } | { ok: false; error: string }> {
  return requestSignals(graph, candles);
}

export type SignalsState =
  | { readonly status: 'idle' }
  | { readonly status: 'computing' }
  | { readonly status: 'done'; readonly signals: readonly SignalMark[] }
  | { readonly status: 'failed'; readonly error: string };

/** The signals of `graph` over `candles`, recomputed when either changes; idle while one is missing. */
export function useSignals(graph: unknown, candles: ChartCandles | undefined): SignalsState {
  const [state, setState] = useState<SignalsState>({ status: 'idle' });
  useEffect(() => {
    if (graph === undefined || graph === null || candles === undefined) {
      setState({ status: 'idle' });
      return undefined;
    }
    let current = true;
    setState({ status: 'computing' });
    computeSignals(graph, candles).then(
      (result) => { if (current) setState(result.ok ? { status: 'done', signals: result.signals } : { status: 'failed', error: result.error }); },
      (error: unknown) => { if (current) setState({ status: 'failed', error: error instanceof Error ? error.message : String(error) }); },
    );
    return () => { current = false; };
  }, [graph, candles]);
  return state;
}

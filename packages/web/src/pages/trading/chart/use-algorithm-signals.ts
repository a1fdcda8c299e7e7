// Signals of a chosen algorithm on the chart: the latest saved version's graph (algorithm_versions)
// run over the chart's candles in the worker (signals-client.ts).
import { useQuery } from 'urql';
import type { ChartCandles } from './chart-candles';
import { LATEST_ALGORITHM_VERSION } from './chart-queries';
import { useSignals, type SignalsState } from './signals-client';

export interface AlgorithmSignalsState {
  readonly version: number | undefined;
  readonly signals: SignalsState;
  readonly loadingGraph: boolean;
}

export function useAlgorithmSignals(algorithmId: string | undefined, candles: ChartCandles | undefined): AlgorithmSignalsState {
  const [latest] = useQuery<{ algorithm_versions: Array<{ version: number; graph: unknown }> }>({
    query: LATEST_ALGORITHM_VERSION, variables: { algorithmId: algorithmId ?? '' }, pause: algorithmId === undefined,
  });
  const row = algorithmId === undefined ? undefined : latest.data?.algorithm_versions[0];
  const signals = useSignals(row?.graph, candles);
  return { version: row?.version, signals, loadingGraph: latest.fetching };
}

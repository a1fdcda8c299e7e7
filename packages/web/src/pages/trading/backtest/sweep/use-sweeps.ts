// The GraphQL side of the sweep screens: the run's algorithm version (its declared parameters),
// the estimate (estimate_sweep, asked again as the form changes), start and cancel, the run's
// sweeps followed live (a subscription on `sweeps`), and a sweep's rows (sweep_results, read in
// pages by position until a short page). Server side: packages/server/src/graphql/actions/sweep-actions.ts.
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useClient, useMutation, useQuery, useSubscription, type CombinedError } from 'urql';
import type { SweepInput } from './sweep-form';

const VERSION_QUERY = `
  query SweepAlgorithmVersion($algorithm_id: uuid!, $version: Int!) {
    algorithm_versions_by_pk(algorithm_id: $algorithm_id, version: $version) { version graph }
  }`;

const ESTIMATE_QUERY = `
  query EstimateSweep($input: sweep_input!) {
    estimate_sweep(input: $input) { kind combinations grid_combinations windows candles_per_run chunks credits remaining_credits parameters constraints }
  }`;

const START_MUTATION = `
  mutation StartSweep($input: sweep_input!) {
    start_sweep(input: $input) { sweep_id combinations chunks credits }
  }`;

const CANCEL_MUTATION = `
  mutation CancelSweep($sweep_id: uuid!) {
    cancel_sweep(sweep_id: $sweep_id) { sweep_id status cancelled }
  }`;

const SWEEP_FIELDS = 'sweep_id kind metric status progress combinations rows_done estimated_candles candles error created_at finished_at';

const SWEEPS_SUBSCRIPTION = `
  subscription RunSweeps($run_id: uuid!) {
    sweeps(where: { run_id: { _eq: $run_id } }, order_by: { created_at: desc }, limit: 100) { ${SWEEP_FIELDS} }
  }`;

const SWEEP_QUERY = `
  query SweepDetail($sweep_id: uuid!) {
    sweeps_by_pk(sweep_id: $sweep_id) { ${SWEEP_FIELDS} request summary }
  }`;

const RESULTS_QUERY = `
  query SweepResults($sweep_id: uuid!, $from: Int!, $limit: Int!) {
    sweep_results(where: { sweep_id: { _eq: $sweep_id }, position: { _gte: $from } }, order_by: { position: asc }, limit: $limit) { position bindings metrics }
  }`;

/** Rows asked for per request. */
export const RESULTS_PAGE = 5_000;

export interface SweepEstimate {
  readonly kind: string;
  readonly combinations: number;
  readonly grid_combinations: number;
  readonly windows: number | null;
  readonly candles_per_run: number;
  readonly chunks: number;
  readonly credits: number;
  readonly remaining_credits: number;
  readonly parameters: unknown;
  readonly constraints: string[];
}

export interface SweepRecord {
  readonly sweep_id: string;
  readonly kind: 'sweep' | 'walkforward';
  readonly metric: string;
  readonly status: string;
  readonly progress: number;
  readonly combinations: number;
  readonly rows_done: number;
  readonly estimated_candles: number;
  readonly candles: number;
  readonly error: string | null;
  readonly created_at: string;
  readonly finished_at: string | null;
}

export interface SweepDetailRecord extends SweepRecord {
  readonly request: unknown;
  readonly summary: unknown;
}

/** The graph of the run's algorithm version; null when it is not visible to the user. */
export function useAlgorithmGraph(algorithm: { algorithmId: string; version: number } | undefined): { graph: unknown; loaded: boolean; error: CombinedError | undefined } {
  const [result] = useQuery<{ algorithm_versions_by_pk: { graph: unknown } | null }>({
    query: VERSION_QUERY, pause: algorithm === undefined,
    variables: algorithm === undefined ? {} : { algorithm_id: algorithm.algorithmId, version: algorithm.version },
  });
  return { graph: result.data?.algorithm_versions_by_pk?.graph ?? null, loaded: result.data !== undefined || result.error !== undefined, error: result.error };
}

/** The estimate of `input`, asked 400 ms after the last change; undefined input pauses it. */
export function useSweepEstimate(input: SweepInput | undefined): { data: SweepEstimate | undefined; error: CombinedError | undefined; fetching: boolean } {
  const [debounced] = useDebouncedValue(input, 400);
  const [result] = useQuery<{ estimate_sweep: SweepEstimate }>({
    query: ESTIMATE_QUERY, pause: debounced === undefined, variables: { input: debounced }, requestPolicy: 'network-only',
  });
  // Only an answer to the input as it is now counts; none is asked while the form has unreadable fields.
  const current = input !== undefined && debounced !== undefined && JSON.stringify(debounced) === JSON.stringify(input);
  return { data: current ? result.data?.estimate_sweep : undefined, error: current ? result.error : undefined, fetching: input !== undefined && (result.fetching || !current) };
}

/** The estimate of a sweep of the run with the algorithm's own ranges: the form's starting values. */
export function useDefaultEstimate(runId: string): { data: SweepEstimate | undefined; error: CombinedError | undefined } {
  const [result] = useQuery<{ estimate_sweep: SweepEstimate }>({ query: ESTIMATE_QUERY, variables: { input: { run_id: runId, kind: 'sweep' } }, requestPolicy: 'network-only' });
  return { data: result.data?.estimate_sweep, error: result.error };
}

export function useStartSweep() {
  return useMutation<{ start_sweep: { sweep_id: string; combinations: number; chunks: number; credits: number } }, { input: SweepInput }>(START_MUTATION);
}

export function useCancelSweep() {
  return useMutation<{ cancel_sweep: { sweep_id: string; status: string; cancelled: boolean } }, { sweep_id: string }>(CANCEL_MUTATION);
}

/** The run's sweeps, newest first, live. */
export function useRunSweeps(runId: string): { sweeps: SweepRecord[] | undefined; error: CombinedError | undefined } {
  const [result] = useSubscription<{ sweeps: SweepRecord[] }>({ query: SWEEPS_SUBSCRIPTION, variables: { run_id: runId } });
  return { sweeps: result.data?.sweeps, error: result.error };
}

/** One sweep with its request and summary, loaded again when its status changes. */
export function useSweepDetail(sweepId: string, status: string | undefined): { sweep: SweepDetailRecord | null | undefined; error: CombinedError | undefined } {
  const [result, refetch] = useQuery<{ sweeps_by_pk: SweepDetailRecord | null }>({ query: SWEEP_QUERY, variables: { sweep_id: sweepId }, requestPolicy: 'network-only' });
  const loaded = result.data?.sweeps_by_pk?.status;
  useEffect(() => {
    if (status !== undefined && loaded !== undefined && status !== loaded && !result.fetching) refetch({ requestPolicy: 'network-only' });
  }, [status, loaded, result.fetching, refetch]);
  return { sweep: result.data?.sweeps_by_pk, error: result.error };
}

/** Every row of a complete sweep, read in pages by position; undefined until all are in. */
export function useSweepRows(sweepId: string, complete: boolean): { rows: unknown[] | undefined; error: CombinedError | undefined } {
  const client = useClient();
  const [state, setState] = useState<{ sweepId?: string; rows: unknown[] | undefined; error: CombinedError | undefined }>({ rows: undefined, error: undefined });
  useEffect(() => {
    if (!complete) return undefined;
    let live = true;
    const load = async (): Promise<void> => {
      const rows: Array<{ position: number }> = [];
      for (let from = 0; ;) {
        const result = await client.query<{ sweep_results: Array<{ position: number }> }>(RESULTS_QUERY, { sweep_id: sweepId, from, limit: RESULTS_PAGE },
          { requestPolicy: 'network-only' }).toPromise();
        if (!live) return;
        if (result.error !== undefined) {
          setState({ sweepId, rows: undefined, error: result.error });
          return;
        }
        const page = result.data?.sweep_results ?? [];
        rows.push(...page);
        const last = page[page.length - 1];
        if (page.length < RESULTS_PAGE || last === undefined) break;
        from = last.position + 1;
      }
      setState({ sweepId, rows, error: undefined });
    };
    void load();
    return () => {
      live = false;
    };
  }, [client, sweepId, complete]);
  return state.sweepId === sweepId ? state : { rows: undefined, error: undefined };
}

// Loads what the results of one run need beyond its strategy_runs row: every order with its
// fills (a select returns at most 5,000 orders, so the list is paged through until a short
// page), the daily P&L rows, and for the capital estimate the underlying's bars at the run's
// interval; the benchmarks' daily closes for the correlations. Errors come back to the caller,
// which toasts the server's message (docs/PRODUCT.md section 8).
import { useEffect, useMemo, useState } from 'react';
import { useClient, useQuery, type CombinedError } from 'urql';
import type { DailyPnlRecord } from './performance';
import type { OrderRecord } from './trade-list';

/** The server's cap on one orders select (tables-trading.ts ORDER_ROW_LIMIT). */
export const ORDER_PAGE = 5_000;

const ORDERS_QUERY = `
  query BacktestRunOrders($run_id: uuid!, $limit: Int!, $offset: Int!) {
    orders(where: { run_id: { _eq: $run_id } }, order_by: [{ created_at: asc }, { client_order_id: asc }], limit: $limit, offset: $offset) {
      order_id client_order_id side quantity filled_quantity status status_message tag average_price_paise created_at
      instrument { trading_symbol kind expiry strike_paise option_type }
      fills { fill_id trade_id quantity price_paise charges_paise ts }
    }
  }`;

const DAYS_QUERY = `
  query BacktestRunDays($run_id: uuid!) {
    daily_pnl(where: { run_id: { _eq: $run_id } }, order_by: [{ date: asc }]) { date pnl_paise orders_count }
  }`;

const CANDLES_QUERY = `
  query BacktestCandles($instrument_id: Int!, $interval: Int!, $from: String!, $to: String!) {
    candle_series(instrument_id: $instrument_id, interval: $interval, from: $from, to: $to) { count truncated time open close }
  }`;

const BENCHMARK_INSTRUMENTS = `
  query BacktestBenchmarks($names: [String!]!) {
    instruments(where: { kind: { _eq: "index" }, name: { _in: $names } }) { instrument_id name }
  }`;

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: CombinedError | undefined;
}

/** Every order of the run with its fills; undefined until all pages are in. */
export function useRunOrders(runId: string | undefined): Loaded<OrderRecord[]> {
  const client = useClient();
  const [state, setState] = useState<Loaded<OrderRecord[]> & { readonly runId?: string }>({ data: undefined, error: undefined });
  useEffect(() => {
    if (runId === undefined) return undefined;
    let live = true;
    const load = async (): Promise<void> => {
      const orders: OrderRecord[] = [];
      for (let offset = 0; ; offset += ORDER_PAGE) {
        const result = await client.query<{ orders: OrderRecord[] }>(ORDERS_QUERY, { run_id: runId, limit: ORDER_PAGE, offset }, { requestPolicy: 'network-only' }).toPromise();
        if (!live) return;
        if (result.error !== undefined) {
          setState({ data: undefined, error: result.error, runId });
          return;
        }
        const page = result.data?.orders ?? [];
        orders.push(...page);
        if (page.length < ORDER_PAGE) break;
      }
      setState({ data: orders, error: undefined, runId });
    };
    void load();
    return () => {
      live = false;
    };
  }, [client, runId]);
  return state.runId === runId ? state : { data: undefined, error: undefined };
}

/** The run's daily P&L rows. */
export function useRunDays(runId: string | undefined): Loaded<DailyPnlRecord[]> {
  const [result] = useQuery<{ daily_pnl: DailyPnlRecord[] }>({ query: DAYS_QUERY, variables: { run_id: runId ?? '' }, pause: runId === undefined });
  return { data: result.data?.daily_pnl, error: result.error };
}

export interface CandleColumns {
  readonly count: number;
  readonly truncated: boolean;
  readonly time: number[];
  readonly open: number[];
  readonly close: number[];
}

/** One instrument's candles (the candle_series action); paused while `request` is undefined. */
export function useCandles(request: { instrumentId: number; interval: number; from: string; to: string } | undefined): Loaded<CandleColumns> {
  const [result] = useQuery<{ candle_series: CandleColumns }>({
    query: CANDLES_QUERY, pause: request === undefined,
    variables: request === undefined ? {} : { instrument_id: request.instrumentId, interval: request.interval, from: request.from, to: request.to },
  });
  return { data: result.data?.candle_series, error: result.error };
}

/** Instrument ids of the benchmark indices by name. */
export function useBenchmarkInstruments(names: readonly string[]): Loaded<Map<string, number>> {
  const [result] = useQuery<{ instruments: Array<{ instrument_id: number; name: string }> }>({ query: BENCHMARK_INSTRUMENTS, variables: { names } });
  const rows = result.data?.instruments;
  const data = useMemo(() => (rows === undefined ? undefined : new Map(rows.map((row) => [row.name, row.instrument_id]))), [rows]);
  return { data, error: result.error };
}

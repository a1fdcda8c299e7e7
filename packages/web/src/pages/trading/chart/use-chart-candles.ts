// Loads one instrument's candles for the chart (the candle_series action) and whether they are
// synthetic, and turns the action's paise columns into rupee typed arrays once per answer.
import { addDays, istMidnightMs } from '@vyuha/core';
import { useMemo } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { rupeeCandles, type ChartCandles } from './chart-candles';
import type { DateRange } from './chart-form';
import { CHART_CANDLES, CHART_SYNTHETIC, type CandleSeriesRow } from './chart-queries';

export interface ChartCandlesState {
  readonly candles: ChartCandles | undefined;
  /** The count the action reported. */
  readonly count: number | undefined;
  readonly truncated: boolean;
  readonly synthetic: boolean;
  readonly fetching: boolean;
  readonly error: CombinedError | undefined;
}

/** Candles of `instrumentId` at `interval` minutes over `range`; nothing while either is missing. */
export function useChartCandles(request: { instrumentId: number | undefined; interval: number; range: DateRange | undefined }): ChartCandlesState {
  const { instrumentId, interval, range } = request;
  const pause = instrumentId === undefined || range === undefined;
  const [result] = useQuery<{ candle_series: CandleSeriesRow }>({
    query: CHART_CANDLES,
    variables: { instrument_id: instrumentId ?? 0, interval, from: range?.from ?? '', to: range?.to ?? '' },
    pause,
  });
  const [synthetic] = useQuery<{ candles: Array<{ ts: string }> }>({
    query: CHART_SYNTHETIC,
    variables: {
      instrument_id: instrumentId ?? 0,
      from: range === undefined ? '' : new Date(istMidnightMs(range.from)).toISOString(),
      to: range === undefined ? '' : new Date(istMidnightMs(addDays(range.to, 1))).toISOString(),
    },
    pause,
  });
  const series = result.data?.candle_series;
  const candles = useMemo(() => (series === undefined ? undefined : rupeeCandles(series)), [series]);
  return {
    candles,
    count: series?.count,
    truncated: series?.truncated ?? false,
    synthetic: (synthetic.data?.candles.length ?? 0) > 0,
    fetching: result.fetching,
    error: result.error,
  };
}

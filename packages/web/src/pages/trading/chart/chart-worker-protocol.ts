// The messages between the chart page and its Web Worker (chart.worker.ts). Each request carries
// an id; the worker answers with the same id. Candles travel as typed arrays (a structured clone
// of a Float64Array is one memory copy, not 100k objects).
import type { ChartCandles } from './chart-candles';
import type { IndicatorLine } from './indicator-groups';
import type { SignalsResult } from './signal-marks';

export type ChartWorkerRequest =
  | { readonly id: number; readonly kind: 'signals'; readonly graph: unknown; readonly candles: ChartCandles }
  | { readonly id: number; readonly kind: 'indicators'; readonly indicators: unknown; readonly candles: ChartCandles };

export type IndicatorsResult = { readonly ok: true; readonly lines: IndicatorLine[] } | { readonly ok: false; readonly error: string };

export type ChartWorkerResponse =
  | { readonly id: number; readonly kind: 'signals'; readonly result: SignalsResult }
  | { readonly id: number; readonly kind: 'indicators'; readonly result: IndicatorsResult };

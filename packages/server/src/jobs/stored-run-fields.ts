// What a backtest run's params (backtest-params.ts) and a sweep's request (sweep-request.ts)
// share: the run they describe, resolved when it was started (instrument id, algorithm version),
// and the checks a worker makes reading either back.
import { isIsoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';

export interface StoredRunFields {
  readonly strategyType: 'intraday' | 'swing';
  readonly instrument: { readonly instrumentId: number; readonly exchange: string; readonly tradingSymbol: string; readonly name: string };
  readonly algorithm: { readonly algorithmId: string; readonly version: number; readonly name: string };
  /** IST dates, both included. */
  readonly dateRange: { readonly from: IsoDate; readonly to: IsoDate };
  /** Bar width the algorithm runs at, minutes. */
  readonly interval: number;
  readonly investmentPaise: number;
  /** Credits reserved when the run or sweep was created. */
  readonly estimatedCandles: number;
  /** The signed-in user who asked. */
  readonly actorId: string;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A check of one stored field: throws `error('<where>.<field> is missing or malformed')` unless `condition`. */
export type FieldCheck = (condition: boolean, field: string) => void;

/** @example fieldCheck('sweeps.request', (message) => new SweepRequestError(message))(false, 'metric') // throws 'sweeps.request.metric is missing or malformed' */
export function fieldCheck(where: string, error: (message: string) => Error): FieldCheck {
  return (condition, field) => {
    if (!condition) throw error(`${where}.${field} is missing or malformed`);
  };
}

/** Checks the fields of StoredRunFields a worker relies on, in this order: instrument, algorithm, dateRange, interval, investmentPaise, strategyType. */
export function checkStoredRunFields(record: Record<string, unknown>, need: FieldCheck): void {
  const instrument = record.instrument;
  need(isRecord(instrument) && Number.isSafeInteger(instrument.instrumentId) && typeof instrument.tradingSymbol === 'string', 'instrument');
  const algorithm = record.algorithm;
  need(isRecord(algorithm) && typeof algorithm.algorithmId === 'string' && Number.isSafeInteger(algorithm.version), 'algorithm');
  const range = record.dateRange;
  need(isRecord(range) && typeof range.from === 'string' && isIsoDate(range.from) && typeof range.to === 'string' && isIsoDate(range.to), 'dateRange');
  need(Number.isSafeInteger(record.interval) && (record.interval as number) >= 1, 'interval');
  need(Number.isSafeInteger(record.investmentPaise) && (record.investmentPaise as number) > 0, 'investmentPaise');
  need(record.strategyType === 'intraday' || record.strategyType === 'swing', 'strategyType');
}

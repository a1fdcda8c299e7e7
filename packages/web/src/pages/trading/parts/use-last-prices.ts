// The one last price the screens show (/payoff, /chart and its option chain): GraphQL's `ltps`,
// which the server serves from one source (the newer of an instrument's latest stored candle
// close and its recorded price, docs/DATA-MODEL.md), with the time it is as of. Every screen reads
// it through this hook, so no two screens can show two prices for one instrument.
import { formatIstDateTime, formatPrice, paiseToRupees } from '@vyuha/core';
import { useMemo } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { epochMs } from './time';

export const LAST_PRICES_QUERY = `
  query LastPrices($ids: [Int!]!) {
    ltps(where: { instrument_id: { _in: $ids } }) { instrument_id price_paise updated_at source }
  }`;

/** One row of the `ltps` answer (bigint paise may arrive as text). */
export interface LastPriceRow {
  readonly instrument_id: number;
  readonly price_paise: number | string;
  readonly updated_at: string;
  readonly source: string;
}

export interface LastPrice {
  readonly instrumentId: number;
  readonly pricePaise: number;
  /** The price in rupees (index points for an index): what option math and charts take. */
  readonly rupees: number;
  /** Epoch ms the price is as of (the end of the candle's minute, or the recorded time). */
  readonly atMs: number;
  /** 'candle': the latest stored candle; 'recorded': an imported or fed price. */
  readonly source: string;
}

/** A row as a LastPrice, or undefined when its price or time cannot be read. */
export function lastPriceOf(row: LastPriceRow): LastPrice | undefined {
  const pricePaise = Number(row.price_paise);
  const atMs = epochMs(row.updated_at);
  if (!Number.isSafeInteger(pricePaise) || pricePaise <= 0 || atMs === undefined) return undefined;
  return { instrumentId: row.instrument_id, pricePaise, rupees: paiseToRupees(pricePaise), atMs, source: row.source };
}

/**
 * What a screen says about a last price.
 * @example lastPriceText(price) // '21,443.20 as of 2026-10-30 15:30:00'
 */
export function lastPriceText(price: LastPrice): string {
  return `${formatPrice(price.pricePaise)} as of ${formatIstDateTime(price.atMs)}`;
}

export interface LastPricesState {
  readonly prices: ReadonlyMap<number, LastPrice>;
  /** True until the first answer. */
  readonly loading: boolean;
  readonly error: CombinedError | undefined;
}

/** The last prices of the given instruments (undefined ids are skipped), fetched afresh on every mount. */
export function useLastPrices(instrumentIds: ReadonlyArray<number | undefined>): LastPricesState {
  const ids = [...new Set(instrumentIds.filter((id): id is number => id !== undefined))].sort((a, b) => a - b);
  const key = ids.join(',');
  const variables = useMemo(() => ({ ids: key === '' ? [] : key.split(',').map(Number) }), [key]);
  const [result] = useQuery<{ ltps: LastPriceRow[] }>({ query: LAST_PRICES_QUERY, variables, pause: key === '', requestPolicy: 'cache-and-network' });
  const rows = result.data?.ltps;
  const prices = useMemo(() => {
    const byId = new Map<number, LastPrice>();
    for (const row of rows ?? []) {
      const price = lastPriceOf(row);
      if (price !== undefined) byId.set(price.instrumentId, price);
    }
    return byId;
  }, [rows]);
  return { prices, loading: key !== '' && rows === undefined && result.error === undefined, error: result.error };
}

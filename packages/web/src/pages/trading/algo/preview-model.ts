// The signal preview's choices: a short recent date range that ends on the instrument's latest
// stored candle (a fresh "last N days" from today would be empty wherever history lags), and the
// part of the rule graph signals depend on (moving a node must not recompute them).
import { addDays, istDate, type IsoDate } from '@vyuha/core';
import type { AlgorithmDocument } from '@vyuha/engine';

/** Calendar days the preview covers by default (about a trading week and a half). */
export const PREVIEW_DAYS = 10;

/**
 * The preview's range: PREVIEW_DAYS calendar days ending on the latest candle's IST date, or on
 * `today` when there is none.
 * @example previewRange('2026-10-30T09:59:00+00:00', '2026-11-24') // { from: '2026-10-21', to: '2026-10-30' }
 */
export function previewRange(latestCandle: string | undefined, today: IsoDate): { from: IsoDate; to: IsoDate } {
  const latestMs = latestCandle === undefined ? Number.NaN : Date.parse(latestCandle);
  const to = Number.isFinite(latestMs) ? istDate(latestMs) : today;
  return { from: addDays(to, -(PREVIEW_DAYS - 1)), to };
}

/**
 * What signals depend on: nodes without their editor geometry, edges, exits.
 * @example signalKey(document) === signalKey(sameDocumentWithNodesMoved) // true
 */
export function signalKey(document: AlgorithmDocument): string {
  const nodes = document.nodes.map((node) => {
    const { position: _position, width: _width, height: _height, label: _label, ...meaning } = node;
    return meaning;
  });
  return JSON.stringify([nodes, document.edges.map((edge) => [edge.source, edge.target]), document.exits ?? null]);
}

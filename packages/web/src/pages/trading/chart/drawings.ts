// Drawings (docs/PRODUCT.md section 2: Horizontal Line and Ray) and how they are saved: one
// user_app_configs row per user and instrument, category 'chart', subcategory
// `drawings_<instrument_id>` (the table's CHECK allows letters, digits and '_' only, so not
// `drawings:<id>`), meta_data `{ "version": 1, "drawings": [...] }` with prices in rupees and times
// in epoch ms:
//   { "id": "h-1", "kind": "horizontal", "price": 24510.5 }
//   { "id": "r-2", "kind": "ray", "time": 1785748500000, "price": 24480 }
// A ray starts at the clicked bar and extends to the right at the clicked price.
import { paiseToRupees, rupeesToPaise } from '@vyuha/core';

export type ChartDrawing =
  | { readonly id: string; readonly kind: 'horizontal'; readonly price: number }
  | { readonly id: string; readonly kind: 'ray'; readonly time: number; readonly price: number };

export type DrawingTool = 'horizontal' | 'ray';

export const DRAWINGS_CATEGORY = 'chart';
export const DRAWINGS_FORMAT_VERSION = 1;

/** The user_app_configs subcategory of one instrument's drawings. @example drawingsSubcategory(7) // 'drawings_7' */
export function drawingsSubcategory(instrumentId: number): string {
  return `drawings_${instrumentId}`;
}

/** meta_data for the drawings. */
export function drawingsMetaData(drawings: readonly ChartDrawing[]): { version: number; drawings: ChartDrawing[] } {
  return { version: DRAWINGS_FORMAT_VERSION, drawings: [...drawings] };
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function readDrawing(value: unknown): ChartDrawing | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry.id !== 'string' || !finite(entry.price) || entry.price <= 0) return undefined;
  if (entry.kind === 'horizontal') return { id: entry.id, kind: 'horizontal', price: entry.price };
  if (entry.kind === 'ray' && finite(entry.time)) return { id: entry.id, kind: 'ray', time: entry.time, price: entry.price };
  return undefined;
}

/** The drawings in a saved meta_data; entries that do not read are dropped, not guessed at. */
export function drawingsFromMetaData(metaData: unknown): ChartDrawing[] {
  if (typeof metaData !== 'object' || metaData === null) return [];
  const list = (metaData as Record<string, unknown>).drawings;
  if (!Array.isArray(list)) return [];
  return list.map(readDrawing).filter((drawing): drawing is ChartDrawing => drawing !== undefined);
}

/** A new drawing from a click on the chart with a tool; the price is rounded to the paisa. */
export function drawingFromClick(input: { tool: DrawingTool; time: number; price: number; id: string }): ChartDrawing {
  const price = paiseToRupees(rupeesToPaise(input.price));
  return input.tool === 'horizontal' ? { id: input.id, kind: 'horizontal', price } : { id: input.id, kind: 'ray', time: input.time, price };
}

/** The label a drawing gets in the list. */
export function drawingLabel(drawing: ChartDrawing, timeText: (epochMs: number) => string): string {
  const price = drawing.price.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return drawing.kind === 'horizontal' ? `Horizontal line at ${price}` : `Ray at ${price} from ${timeText(drawing.time)}`;
}

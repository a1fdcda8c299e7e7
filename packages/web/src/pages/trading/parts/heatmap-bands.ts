// The calendar heatmap bands of docs/PRODUCT.md section 9, on the engine's scales (metrics/heatmap-bands.ts,
// whose reading is in the engine's metrics/README.md: a band is (lower, upper], the last one
// open-ended): profit/loss in rupees 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 132000 on
// each side of zero (alternate: by 2000 up to 18000); order counts in bands of 2 up to above 18
// (alternate: by 1); returns on the investment in tenths of a percent up to plus or minus 1.
import { orderBand, pnlBand as enginePnlBand, returnBand, ORDER_BANDS, ORDER_BANDS_BY_ONE, PNL_BANDS, PNL_BANDS_BY_2000, RETURN_PERCENT_BANDS } from '@vyuha/engine';
import type { BandScale } from '@vyuha/engine';

export type HeatmapMetric = 'pnl' | 'orders' | 'returns';
/** The spec's main bands, or its alternates (P&L by 2000, orders by 1; returns have none). */
export type BandChoice = 'standard' | 'alternate';

/** The engine scale a metric is banded on. @example scaleFor('orders', 'alternate').edges.length // 18 */
export function scaleFor(metric: HeatmapMetric, choice: BandChoice = 'standard'): BandScale {
  if (metric === 'returns') return RETURN_PERCENT_BANDS;
  if (metric === 'orders') return choice === 'alternate' ? ORDER_BANDS_BY_ONE : ORDER_BANDS;
  return choice === 'alternate' ? PNL_BANDS_BY_2000 : PNL_BANDS;
}

/** Levels of a scale: one per band above zero, the open-ended last one included. */
export function levelsOf(scale: BandScale): number {
  return scale.edges.length + 1;
}

/** Levels of the standard P&L and order scales (both 10). */
export const LEVELS = levelsOf(PNL_BANDS);

export interface Band {
  /** 'none' for a zero value. */
  readonly tone: 'profit' | 'loss' | 'orders' | 'none';
  /** 0 .. levels-1, darker with the magnitude. */
  readonly level: number;
  /** How many levels the scale has (for the colour ramp); defaults to LEVELS. */
  readonly levels?: number;
}

function signed(index: number, levels: number): Band {
  if (index === 0) return { tone: 'none', level: 0, levels };
  return { tone: index > 0 ? 'profit' : 'loss', level: Math.abs(index) - 1, levels };
}

/**
 * The band of a day's P&L in paise.
 * @example pnlBand(-150_000) -> { tone: 'loss', level: 2, levels: 10 } (₹1,500 is in 1000 to 2000)
 */
export function pnlBand(pnlPaise: number, choice: BandChoice = 'standard'): Band {
  const scale = scaleFor('pnl', choice);
  return signed(enginePnlBand(Math.round(pnlPaise), scale).index, levelsOf(scale));
}

/** The band of a day's order count. @example ordersBand(19) -> { tone: 'orders', level: 9, levels: 10 } */
export function ordersBand(orders: number, choice: BandChoice = 'standard'): Band {
  const scale = scaleFor('orders', choice);
  const index = orderBand(Math.max(0, Math.round(orders)), scale).index;
  return index === 0 ? { tone: 'none', level: 0, levels: levelsOf(scale) } : { tone: 'orders', level: index - 1, levels: levelsOf(scale) };
}

/** The band of a day's return on the investment. @example returnsBand(-25_000, 10_000_000) -> { tone: 'loss', level: 2, levels: 11 } (-0.25%) */
export function returnsBand(pnlPaise: number, capitalPaise: number): Band {
  return signed(returnBand(Math.round(pnlPaise), Math.round(capitalPaise)).index, levelsOf(RETURN_PERCENT_BANDS));
}

// Light to dark ends of each scale, mixed in RGB; the lightest still differs from "no data".
const SCALES: Record<Exclude<Band['tone'], 'none'>, readonly [string, string]> = {
  profit: ['#b7e4c7', '#0b4f24'],
  loss: ['#f8c4c0', '#7a0f0f'],
  orders: ['#c5d8f7', '#123a7a'],
};

function channel(hex: string, offset: number): number {
  return Number.parseInt(hex.slice(offset, offset + 2), 16);
}

function mix(light: string, dark: string, weight: number): string {
  const parts = [1, 3, 5].map((offset) => Math.round(channel(light, offset) + (channel(dark, offset) - channel(light, offset)) * weight));
  return `#${parts.map((part) => part.toString(16).padStart(2, '0')).join('')}`;
}

/** Fill colour of a band; `undefined` for 'none' (the grid draws its empty colour). */
export function bandColor(band: Band): string | undefined {
  if (band.tone === 'none') return undefined;
  const [light, dark] = SCALES[band.tone];
  return mix(light, dark, band.level / ((band.levels ?? LEVELS) - 1));
}

const grouped = (value: number): string => value.toLocaleString('en-IN', { maximumFractionDigits: 1 });

/**
 * Legend labels of a scale's levels (magnitudes; the sign is the tone).
 * @example levelLabels('pnl')[0] -> '≤ 500' ; levelLabels('pnl')[9] -> '> 1,32,000'
 * @example levelLabels('orders')[0] -> '1–2' ; levelLabels('returns')[0] -> '≤ 0.1%'
 */
export function levelLabels(metric: HeatmapMetric, choice: BandChoice = 'standard'): string[] {
  const { edges } = scaleFor(metric, choice);
  const suffix = metric === 'returns' ? '%' : '';
  const last = `> ${grouped(edges[edges.length - 1] ?? 0)}${suffix}`;
  if (metric === 'orders') {
    return [...edges.map((upper, index) => {
      const lower = index === 0 ? 1 : (edges[index - 1] as number) + 1;
      return lower === upper ? String(upper) : `${lower}–${upper}`;
    }), last];
  }
  return [
    `≤ ${grouped(edges[0] ?? 0)}${suffix}`,
    ...edges.slice(1).map((upper, index) => `${grouped(edges[index] as number)}–${grouped(upper)}${suffix}`),
    last,
  ];
}

/** Legend labels of the standard P&L levels, in rupees. */
export function pnlLevelLabels(): string[] {
  return levelLabels('pnl');
}

/** Legend labels of the standard order levels. */
export function orderLevelLabels(): string[] {
  return levelLabels('orders');
}

// The calendar heatmap bands of spec section 9: profit/loss in rupees 500, 1000, 2000, 4000, 8000,
// 16000, 32000, 64000, 132000 on each side of zero; order counts in bands of 2 up to above 18.

export type HeatmapMetric = 'pnl' | 'orders';

/** Spec section 9, in rupees. */
export const PNL_BAND_RUPEES: readonly number[] = [500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 132000];
/** Upper bounds of the order bands (1-2, 3-4, ... 17-18); above 18 is the last band. */
export const ORDER_BAND_LIMITS: readonly number[] = [2, 4, 6, 8, 10, 12, 14, 16, 18];

/** Levels per side: below the first threshold, between each pair, and at or above the last. */
export const LEVELS = PNL_BAND_RUPEES.length + 1;

export interface Band {
  /** 'none' for no data or a zero value. */
  readonly tone: 'profit' | 'loss' | 'orders' | 'none';
  /** 0 .. LEVELS-1, darker with the magnitude. */
  readonly level: number;
}

/**
 * The band of a day's P&L in paise.
 * @example pnlBand(-150_000) -> { tone: 'loss', level: 2 } (₹1,500 is between 1000 and 2000)
 */
export function pnlBand(pnlPaise: number): Band {
  if (pnlPaise === 0) return { tone: 'none', level: 0 };
  const rupees = Math.abs(pnlPaise) / 100;
  const level = PNL_BAND_RUPEES.filter((threshold) => rupees >= threshold).length;
  return { tone: pnlPaise > 0 ? 'profit' : 'loss', level };
}

/** The band of a day's order count. @example ordersBand(19) -> { tone: 'orders', level: 9 } */
export function ordersBand(orders: number): Band {
  if (orders <= 0) return { tone: 'none', level: 0 };
  const index = ORDER_BAND_LIMITS.findIndex((limit) => orders <= limit);
  return { tone: 'orders', level: index === -1 ? ORDER_BAND_LIMITS.length : index };
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
  return mix(light, dark, band.level / (LEVELS - 1));
}

/** Legend labels of the P&L levels, in rupees. @example pnlLevelLabels()[0] -> '< 500' */
export function pnlLevelLabels(): string[] {
  const format = (rupees: number): string => rupees.toLocaleString('en-IN');
  return [
    `< ${format(PNL_BAND_RUPEES[0] ?? 0)}`,
    ...PNL_BAND_RUPEES.slice(1).map((upper, index) => `${format(PNL_BAND_RUPEES[index] ?? 0)}–${format(upper)}`),
    `≥ ${format(PNL_BAND_RUPEES[PNL_BAND_RUPEES.length - 1] ?? 0)}`,
  ];
}

/** Legend labels of the order levels. @example orderLevelLabels()[9] -> '> 18' */
export function orderLevelLabels(): string[] {
  return [...ORDER_BAND_LIMITS.map((upper) => `${upper - 1}–${upper}`), `> ${ORDER_BAND_LIMITS[ORDER_BAND_LIMITS.length - 1] ?? 0}`];
}

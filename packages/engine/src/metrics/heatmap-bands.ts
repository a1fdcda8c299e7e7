// Colour bands of the calendar heatmaps (docs/PRODUCT.md section 9): "returns in tenths up to plus or minus 1;
// orders bands of 2 up to above 18; profit/loss 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000,
// 132000; alternate bands by 1 step and by 2000 step up to 18000". Our reading is in ./README.md.

/**
 * A scale: ascending positive upper edges. A value v != 0 falls in the first band whose edge is
 * >= |v| (lower edge exclusive, upper inclusive), or beyond the last edge. Signed scales mirror
 * the bands for negative values.
 */
export interface BandScale {
  readonly name: string;
  readonly edges: readonly number[];
  readonly signed: boolean;
}

/**
 * Which band a value is in. index: 0 for exactly 0, +k for the k-th band above 0 (edges.length
 * + 1 beyond the last edge), -k for its mirror below 0. Bounds are null where open-ended.
 */
export interface Band {
  readonly index: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly label: string;
}

function steps(step: number, limit: number): number[] {
  return Array.from({ length: Math.round(limit / step) }, (_, i) => (i + 1) * step);
}

/** Daily return in percent of capital, tenths up to 1 (so beyond +-1% is the last band). */
export const RETURN_PERCENT_BANDS: BandScale = { name: 'returnPercent', edges: Array.from({ length: 10 }, (_, i) => (i + 1) / 10), signed: true };
/** Orders per day, bands of 2: 1-2, 3-4, ..., 17-18, above 18. */
export const ORDER_BANDS: BandScale = { name: 'orders', edges: steps(2, 18), signed: false };
/** Orders per day, the alternate scale by 1: 1, 2, ..., 18, above 18. */
export const ORDER_BANDS_BY_ONE: BandScale = { name: 'ordersByOne', edges: steps(1, 18), signed: false };
/** Daily profit or loss in rupees, doubling bands (the spec's 132000, not 128000, is kept). */
export const PNL_BANDS: BandScale = { name: 'pnl', edges: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 132_000], signed: true };
/** Daily profit or loss in rupees, the alternate scale by 2000 up to 18000. */
export const PNL_BANDS_BY_2000: BandScale = { name: 'pnlBy2000', edges: steps(2_000, 18_000), signed: true };

function text(value: number): string {
  return String(value);
}

function positiveBand(scale: BandScale, k: number): Band {
  const upper = scale.edges[k - 1] ?? null;
  const lower = k === 1 ? 0 : (scale.edges[k - 2] as number);
  const label = upper === null ? `> ${text(lower)}` : `${text(lower)} to ${text(upper)}`;
  return { index: k, lower, upper, label };
}

/** The band with a given index (the inverse of bandOf), e.g. for a legend. */
export function bandAt(scale: BandScale, index: number): Band {
  const last = scale.edges.length + 1;
  if (!Number.isInteger(index) || Math.abs(index) > last || (index < 0 && !scale.signed)) {
    throw new RangeError(`${scale.name} has bands ${scale.signed ? -last : 0}..${last}, got ${index}`);
  }
  if (index === 0) return { index: 0, lower: 0, upper: 0, label: '0' };
  const band = positiveBand(scale, Math.abs(index));
  if (index > 0) return band;
  const lower = band.upper === null ? null : -band.upper;
  const upper = band.lower === 0 ? 0 : -(band.lower as number);
  const label = lower === null ? `< ${text(upper)}` : `${text(lower)} to ${text(upper)}`;
  return { index, lower, upper, label };
}

/**
 * The band a value falls in.
 * @example bandOf(PNL_BANDS, -750).label // '-1000 to -500'
 * @example bandOf(ORDER_BANDS, 19).label // '> 18'
 */
export function bandOf(scale: BandScale, value: number): Band {
  if (!Number.isFinite(value)) throw new RangeError(`${scale.name} value must be finite, got ${value}`);
  if (value < 0 && !scale.signed) throw new RangeError(`${scale.name} value must be >= 0, got ${value}`);
  if (value === 0) return bandAt(scale, 0);
  const magnitude = Math.abs(value);
  const found = scale.edges.findIndex((edge) => magnitude <= edge);
  const k = found < 0 ? scale.edges.length + 1 : found + 1;
  return bandAt(scale, value < 0 ? -k : k);
}

/** The P&L band of a day's net P&L in paise (the scale is in rupees; compared exactly). */
export function pnlBand(netPnlPaise: number, scale: BandScale = PNL_BANDS): Band {
  if (!Number.isSafeInteger(netPnlPaise)) throw new RangeError(`netPnl must be whole paise, got ${netPnlPaise}`);
  // Edges are whole rupees: compare paise with edge x 100, both exact integers.
  const magnitude = Math.abs(netPnlPaise);
  if (magnitude === 0) return bandAt(scale, 0);
  const found = scale.edges.findIndex((edge) => magnitude <= edge * 100);
  const k = found < 0 ? scale.edges.length + 1 : found + 1;
  return bandAt(scale, netPnlPaise < 0 ? -k : k);
}

/**
 * The return band of a day's net P&L over capital, decided exactly in integers (0.3% must not
 * land above the 0.3 edge through float rounding): |pnl| x 1000 <= tenth x capital.
 */
export function returnBand(netPnlPaise: number, capitalPaise: number): Band {
  if (!Number.isSafeInteger(netPnlPaise) || !Number.isSafeInteger(capitalPaise) || capitalPaise <= 0) {
    throw new RangeError(`netPnl and capital must be whole paise (capital > 0), got ${netPnlPaise} and ${capitalPaise}`);
  }
  if (netPnlPaise === 0) return bandAt(RETURN_PERCENT_BANDS, 0);
  const scaled = BigInt(Math.abs(netPnlPaise)) * 1_000n;
  const tenths = RETURN_PERCENT_BANDS.edges.length;
  let k = tenths + 1;
  for (let tenth = 1; tenth <= tenths; tenth += 1) {
    if (scaled <= BigInt(tenth) * BigInt(capitalPaise)) {
      k = tenth;
      break;
    }
  }
  return bandAt(RETURN_PERCENT_BANDS, netPnlPaise < 0 ? -k : k);
}

/** The order-count band of a day. @example orderBand(0).index // 0 */
export function orderBand(orders: number, scale: BandScale = ORDER_BANDS): Band {
  if (!Number.isSafeInteger(orders) || orders < 0) throw new RangeError(`orders must be a whole number >= 0, got ${orders}`);
  return bandOf(scale, orders);
}

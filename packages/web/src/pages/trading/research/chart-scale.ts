// Scales and tick marks for the hand-drawn SVG charts (no chart library yet).

/** A linear map from a data range onto a pixel range. */
export interface LinearScale {
  (value: number): number;
  readonly domain: readonly [number, number];
}

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps to the middle of the range. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = (value: number): number => (span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0));
  return Object.assign(scale, { domain });
}

/**
 * About `count` round tick values covering [min, max] (steps of 1, 2 or 5 times a power of ten).
 * @example niceTicks(0, 97, 5) // [0, 20, 40, 60, 80]
 */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!(Number.isFinite(min) && Number.isFinite(max)) || max <= min || count < 1) return Number.isFinite(min) ? [min] : [];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max + step * 1e-9; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

/** [min, max] of the values, padded by `padding` of the span (or of the value when flat). */
export function paddedExtent(values: Iterable<number>, padding = 0.05): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (min === Infinity) return [0, 1];
  const span = max - min || Math.abs(max) || 1;
  return [min - span * padding, max + span * padding];
}

// The detail's heavy parts, each in its own chunk: the price chart and the equity chart (the
// charting library) and the algorithm's rule canvas. The header, the orders and the positions
// render first; each part holds a placeholder of its own height until its chunk has loaded, so
// nothing below it moves.
import { lazyPart } from '../../../../app/lazy-part';

export const LazyRunChart = lazyPart(() => import('./RunChart').then((module) => module.RunChart), { placeholderHeight: 380 });
export const LazyRunEquity = lazyPart(() => import('./RunEquity').then((module) => module.RunEquity), { placeholderHeight: 280 });
export const LazyAlgorithmSnapshot = lazyPart(
  () => import('./AlgorithmSnapshot').then((module) => module.AlgorithmSnapshot), { placeholderHeight: 120 });

// The detail's heavy parts, each in its own chunk: the price chart and the equity chart (the
// charting library) and the algorithm's rule canvas. The header, the orders and the positions
// render first; each part shows a placeholder of its own height until its chunk has loaded, so
// nothing below it moves.
import { Skeleton } from '@mantine/core';
import { Suspense, type ComponentProps } from 'react';
import { lazyPart } from '../../../../app/stale-chunks';
import type { AlgorithmSnapshot } from './AlgorithmSnapshot';
import type { RunChart } from './RunChart';
import type { RunEquity } from './RunEquity';

type ChartProps = ComponentProps<typeof RunChart>;
type EquityProps = ComponentProps<typeof RunEquity>;
type SnapshotProps = ComponentProps<typeof AlgorithmSnapshot>;

const ChartChunk = lazyPart<ChartProps>(() => import('./RunChart').then((module) => module.RunChart));
const EquityChunk = lazyPart<EquityProps>(() => import('./RunEquity').then((module) => module.RunEquity));
const SnapshotChunk = lazyPart<SnapshotProps>(() => import('./AlgorithmSnapshot').then((module) => module.AlgorithmSnapshot));

export function LazyRunChart(props: ChartProps) {
  return <Suspense fallback={<Skeleton height={380} />}><ChartChunk {...props} /></Suspense>;
}

export function LazyRunEquity(props: EquityProps) {
  return <Suspense fallback={<Skeleton height={280} />}><EquityChunk {...props} /></Suspense>;
}

export function LazyAlgorithmSnapshot(props: SnapshotProps) {
  return <Suspense fallback={<Skeleton height={120} />}><SnapshotChunk {...props} /></Suspense>;
}

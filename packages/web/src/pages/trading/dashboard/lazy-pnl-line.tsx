// The dashboard's line chart in its own chunk (the charting library): the default view is the
// calendar heatmap, so the dashboard renders without it and loads it when the line is chosen.
import { Skeleton } from '@mantine/core';
import { Suspense, type ComponentProps } from 'react';
import { lazyPart } from '../../../app/stale-chunks';
import type { PnlLine } from './PnlLine';

type LineProps = ComponentProps<typeof PnlLine>;

const LineChunk = lazyPart<LineProps>(() => import('./PnlLine').then((module) => module.PnlLine));

export function LazyPnlLine(props: LineProps) {
  return <Suspense fallback={<Skeleton height={320} />}><LineChunk {...props} /></Suspense>;
}

// A part of a page in its own chunk, loaded when first rendered: a dialog opened on demand, a
// chart or canvas below the fold. The returned component carries its own Suspense boundary: until
// the chunk has loaded it holds a placeholder of the part's height (so nothing below it moves) or
// nothing; a dialog that is closed renders nothing and loads nothing. A chunk gone after a deploy
// reloads the page once, as pages do (stale-chunks.ts).
import { Skeleton } from '@mantine/core';
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { loadChunk } from './stale-chunks';

export interface LazyPartOptions<P> {
  /** Height in px of the placeholder shown while the chunk loads; none when absent. */
  placeholderHeight?: number;
  /** When false the part renders nothing and its chunk is not asked for (a closed dialog). */
  renderWhen?: (props: P) => boolean;
}

/**
 * @example export const LazyRunChart = lazyPart(() => import('./RunChart').then((m) => m.RunChart), { placeholderHeight: 380 });
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, options: LazyPartOptions<P> = {}): (props: P) => ReactElement | null {
  const Chunk = lazy(async () => ({ default: await loadChunk(load) }));
  const placeholder = options.placeholderHeight === undefined ? null : <Skeleton height={options.placeholderHeight} />;
  return function LazyPart(props: P) {
    if (options.renderWhen && !options.renderWhen(props)) return null;
    // The lazy component takes exactly P; React's typing of lazy() loses that for generic P.
    const Loaded = Chunk as unknown as ComponentType<P>;
    return <Suspense fallback={placeholder}><Loaded {...props} /></Suspense>;
  };
}

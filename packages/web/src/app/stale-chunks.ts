// docs/PRODUCT.md section 8: stale code chunks trigger a reload of the route. After a deploy the chunk a tab
// asks for may no longer exist; the first failure reloads the page at the same URL (once per
// path and minute, so a real outage shows the error page instead of a reload loop).
import type { ComponentType } from 'react';

const RELOAD_KEY = 'vyuha-chunk-reload';
const RELOAD_WINDOW_MS = 60_000;

function isChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically/i.test(message);
}

function reloadedRecently(path: string): boolean {
  try {
    const saved = JSON.parse(sessionStorage.getItem(RELOAD_KEY) ?? 'null') as { path: string; at: number } | null;
    return saved !== null && saved.path === path && Date.now() - saved.at < RELOAD_WINDOW_MS;
  } catch {
    return false;
  }
}

/** Loads a code chunk; a chunk gone after a deploy reloads the page once instead of failing. */
export async function loadChunk<M>(load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (error) {
    const path = window.location.pathname + window.location.search;
    if (isChunkError(error) && !reloadedRecently(path)) {
      sessionStorage.setItem(RELOAD_KEY, JSON.stringify({ path, at: Date.now() }));
      window.location.reload();
      // The page is going away; never settle.
      return new Promise<never>(() => undefined);
    }
    throw error;
  }
}

/** A react-router `lazy` function for a page module that exports `Component`. */
export function lazyPage<M extends { Component: ComponentType }>(load: () => Promise<M>): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: (await loadChunk(load)).Component });
}

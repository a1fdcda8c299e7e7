// The version poll of docs/PRODUCT.md section 4: /version.json with a random query parameter every 30 s
// (docs/PRODUCT.md section 9). The deploy store keeps the first version seen; a different one sets
// notify-refresh, and the shell offers a reload. `updateMode` (ours) says a deploy is under way.
import { useSyncExternalStore } from 'react';
import { useDeployStore } from '../stores/deploy-store';

export const VERSION_POLL_MS = 30_000;

interface DeployedVersion {
  readonly version: string | undefined;
  readonly updateMode: boolean;
  readonly error: string | undefined;
}

let latest: DeployedVersion = { version: undefined, updateMode: false, error: undefined };
const listeners = new Set<() => void>();
let polling: ReturnType<typeof setInterval> | undefined;

function publish(next: DeployedVersion): void {
  latest = next;
  for (const listener of listeners) listener();
}

/** Reads /version.json once; the deploy store learns the version. */
export async function checkVersion(): Promise<void> {
  try {
    const response = await fetch(`/version.json?r=${Math.random().toString(36).slice(2)}`, { cache: 'no-store' });
    if (!response.ok) throw new Error(`Error in fetching version (HTTP ${response.status})`);
    const body = (await response.json()) as { version?: unknown; updateMode?: unknown };
    if (typeof body.version !== 'string') throw new Error('Error in fetching version');
    useDeployStore.getState().received(body.version);
    publish({ version: body.version, updateMode: body.updateMode === true, error: undefined });
  } catch (error) {
    publish({ ...latest, error: error instanceof Error && error.message ? error.message : 'Error in fetching version' });
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (polling === undefined) {
    void checkVersion();
    polling = setInterval(() => void checkVersion(), VERSION_POLL_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && polling !== undefined) {
      clearInterval(polling);
      polling = undefined;
    }
  };
}

/** The deployed version as last read (polled every 30 s while any component uses it). */
export function useDeployedVersion(): DeployedVersion {
  return useSyncExternalStore(subscribe, () => latest);
}

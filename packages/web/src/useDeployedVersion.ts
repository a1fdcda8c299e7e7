import { useEffect, useState } from 'react';

/** The deployed version from /version.json (undefined until it answers or if it fails). */
export function useDeployedVersion(): string | undefined {
  const [version, setVersion] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/version.json?t=${Date.now()}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ version?: string }>) : undefined))
      .then((body) => setVersion(body?.version))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return version;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, webDistDir } from './paths';

/**
 * The deployed version: the one the web build stamped into dist/version.json (package version
 * plus build id, so every deploy differs and open tabs notice), else the package version.
 */
export function readDeployedVersion(): string {
  try {
    const stamped = JSON.parse(readFileSync(join(webDistDir, 'version.json'), 'utf8')) as { version?: unknown };
    if (typeof stamped.version === 'string' && stamped.version) return stamped.version;
  } catch {
    // No build yet: fall back to the package version.
  }
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

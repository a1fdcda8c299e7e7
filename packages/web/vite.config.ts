import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Stamps dist/version.json with the package version plus a build id. The server serves it at
 * /version.json and open tabs poll it (docs/PRODUCT.md section 4): every build is a new deployed version.
 */
function versionStamp(): Plugin {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return {
    name: 'vyuha-version-stamp',
    apply: 'build',
    generateBundle() {
      const buildId = Date.now().toString(36);
      this.emitFile({ type: 'asset', fileName: 'version.json', source: `${JSON.stringify({ version: `${manifest.version}+${buildId}` })}\n` });
    },
  };
}

export default defineConfig({
  plugins: [react(), versionStamp()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080', '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080', '/version.json': 'http://127.0.0.1:8080' } },
});

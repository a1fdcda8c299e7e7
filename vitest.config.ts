import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'pure',
          include: ['packages/{core,market,engine}/src/**/*.test.ts'],
        },
      },
      {
        test: {
          // The web app's logic that needs no browser (formats, alerts, machines with a stubbed fetch).
          name: 'web',
          include: ['packages/web/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/{src,test}/**/*.test.ts', 'tests/outside-clients/**/*.test.ts'],
          // One embedded PostgreSQL per run; each test file clones its own database from a template.
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          // Builds the web app if stale, starts one server (embedded PostgreSQL, demo world) and an SMTP catcher.
          globalSetup: ['tests/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One shared server and one Chromium at a time: the machine has 2 cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'repo',
          include: ['test/**/*.test.ts'],
          testTimeout: 180_000,
        },
      },
    ],
  },
});

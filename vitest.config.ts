import { configDefaults, defineConfig } from 'vitest/config';

// The serial server files: a LIVE worker killed at chosen points while a Kite stand-in ticks, a
// session that dies on a real clock, and /healthz latency under abuse. They run apart from other
// test files so that a busy machine cannot change what they see.
const SERIAL_SERVER_FILES = [
  'packages/server/test/trading-live/live-chaos-sigkill.test.ts',
  'packages/server/test/trading-live/live-session-expiry.test.ts',
  'packages/server/test/graphql/abuse-http.test.ts',
];

export default defineConfig({
  test: {
    // Two files at a time (Vitest's default is one fewer than the cores: one on this 2-core machine).
    // Most server files wait on PostgreSQL and timers more than they compute.
    maxWorkers: 2,
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
          exclude: [...configDefaults.exclude, ...SERIAL_SERVER_FILES],
          // One embedded PostgreSQL per run; each test file clones its own database from a template.
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'server-serial',
          include: SERIAL_SERVER_FILES,
          // Its own embedded PostgreSQL; these files run one at a time, after the parallel projects.
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
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
          // The strict type-check of every package takes about a minute alone, longer beside a server file.
          testTimeout: 420_000,
        },
      },
    ],
  },
});

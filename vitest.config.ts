import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The serial server files: a LIVE session that dies on a real clock, and /healthz latency under
// abuse. They run apart from other test files so that a busy machine cannot change what they see.
const SERIAL_SERVER_FILES = [
  'packages/server/test/trading-live/live-session-expiry.test.ts',
  'packages/server/test/graphql/abuse-http.test.ts',
];

// The longest files of the parallel projects, started first (longest first) so that the short ones
// fill in beside them; left to Vitest's order (project by project, larger files first) they could
// start last and run alone. The LIVE SIGKILL chaos test mostly waits on its workers' reads of the
// Kite stand-in; it checks orders and fills, not timings, and passes on a loaded machine.
const LONG_FILES = [
  'packages/server/test/trading-live/live-chaos-sigkill.test.ts',
  'packages/server/test/trading-runner/chaos-sigkill.test.ts',
  'test/typecheck.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONG_FILES.indexOf(relative(spec.project.config.root, spec.moduleId));
      return at === -1 ? LONG_FILES.length : at;
    };
    // Stable: only within a group (same sequence.groupOrder) do long files move ahead.
    return sorted.map((spec, index) => ({ spec, index })).sort((a, b) =>
      (a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder) || (rank(a.spec) - rank(b.spec)) || (a.index - b.index))
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongFilesFirst },
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

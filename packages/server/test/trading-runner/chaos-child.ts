// The worker of the SIGKILL chaos test (chaos-sigkill.test.ts), a process of its own started with
// `node --import tsx chaos-child.ts <database url> <run id>`: it replays the PAPER run at full
// speed through the whole runtime (replayPaperRun resumes a run whose decisions are stored) and
// exits 0 once the run finished. With VYUHA_CHAOS set it dies by SIGKILL at that fault point
// (src/trading/chaos.ts); any other ending is a failure, its reason on stderr, exit code 1.
import pg from 'pg';
import { replayPaperRun } from '../../src/trading/runner/replay-run';

const [url, runId] = process.argv.slice(2);
if (url === undefined || runId === undefined) throw new Error('usage: chaos-child.ts <database url> <run id>');

const pool = new pg.Pool({ connectionString: url, max: 4 });
try {
  const summary = await replayPaperRun({ pool, runId, log: (message) => process.stderr.write(`${message}\n`) });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await pool.end();
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
}

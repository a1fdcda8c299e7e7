// The whole `vyuha backtest` process on a 937,500-bar CSV (2,500 sessions of 375 1-minute bars)
// against a hand-written single-loop Node program that makes the same trades
// (packages/engine/bench/cli-baseline/sma-crossover.mjs), each timed as a separate process a few
// times (median), with the two --trades outputs compared byte for byte. Budget (docs/BUDGETS.md): <= 1.5x.
// bin/vyuha.mjs runs a bundle of the sources that it rebuilds when a source changed: the first run
// (which may rebuild) is timed and shown apart, and so is the same command through tsx
// (VYUHA_BUNDLE=0), for reference. The ratio is of the median of the runs after the first.
//   cd packages/server && npm run bench backtest-cli
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SESSIONS = 2_500;
const MINUTES = 375;
const RUNS = 5;
const BUDGET = 1.5;
const here = fileURLToPath(new URL('.', import.meta.url));
const vyuha = resolve(here, '../bin/vyuha.mjs');
const baseline = resolve(here, '../../engine/bench/cli-baseline/sma-crossover.mjs');
const folder = mkdtempSync(join(tmpdir(), 'vyuha-backtest-bench-'));

/** Seeded random walk, weekdays from 2023-01-02, 09:15-15:29 IST. */
function writeCsv(path: string): number {
  let state = 94_000;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const lines = ['datetime,open,high,low,close,volume'];
  let price = 1_800_000; // paise
  const day = new Date(Date.UTC(2023, 0, 2));
  const two = (n: number): string => String(n).padStart(2, '0');
  const rupees = (p: number): string => `${Math.floor(p / 100)}.${two(p % 100)}`;
  for (let session = 0; session < SESSIONS;) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) {
      const date = `${day.getUTCFullYear()}-${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}`;
      for (let minute = 0; minute < MINUTES; minute += 1) {
        const open = price;
        price = Math.max(100, price + Math.round((uniform() - 0.5) * 1_200));
        const high = Math.max(open, price) + Math.round(uniform() * 300);
        const low = Math.min(open, price) - Math.round(uniform() * 300);
        const total = 9 * 60 + 15 + minute;
        lines.push(`${date} ${two(Math.floor(total / 60))}:${two(total % 60)},${rupees(open)},${rupees(high)},${rupees(low)},${rupees(price)},${1 + Math.floor(uniform() * 999)}`);
      }
      session += 1;
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return lines.length - 1;
}

function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): number {
  const start = performance.now();
  const run = spawnSync(command, args, { encoding: 'utf8', env });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${String(run.status)}: ${run.stderr}`);
  return seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

try {
  const data = join(folder, 'bars.csv');
  const bars = writeCsv(data);
  const cliTrades = join(folder, 'cli-trades.csv');
  const baselineTrades = join(folder, 'baseline-trades.csv');
  const label = 'node bin/vyuha.mjs backtest';
  const cliArgs = [
    vyuha, 'backtest', '--data', data, '--entry', 'crossover(sma(close, 10), sma(close, 20))', '--exit', 'crossunder(sma(close, 10), sma(close, 20))',
    '--type', 'swing', '--sizing', 'qty:1', '--fill', 'next-open', '--charges', 'none', '--trades', cliTrades,
  ];
  const manifest = resolve(here, '../dist/cli/manifest.json');
  const builtBefore = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const first = timed(process.execPath, cliArgs);
  const rebuilt = existsSync(manifest) && statSync(manifest).mtimeMs !== builtBefore;
  const cliSeconds: number[] = [];
  const baselineSeconds: number[] = [];
  const tsxSeconds: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    cliSeconds.push(timed(process.execPath, cliArgs));
    baselineSeconds.push(timed(process.execPath, [baseline, data, baselineTrades]));
    tsxSeconds.push(timed(process.execPath, cliArgs, { ...process.env, VYUHA_BUNDLE: '0' }));
  }
  const same = readFileSync(cliTrades, 'utf8') === readFileSync(baselineTrades, 'utf8');
  const trades = readFileSync(cliTrades, 'utf8').trim().split('\n').length - 1;
  const cli = median(cliSeconds);
  const reference = median(baselineSeconds);
  const ratio = cli / reference;
  console.log(`${bars} bars; ${trades} fills; trades identical: ${same ? 'yes' : 'NO'}`);
  console.log(`${label}: first run ${(first * 1000).toFixed(0)} ms (${rebuilt ? 'rebuilt the bundle' : 'bundle was fresh'})`);
  console.log(`${label}: ${(cli * 1000).toFixed(0)} ms (median of ${RUNS})`);
  console.log(`same through tsx (VYUHA_BUNDLE=0): ${(median(tsxSeconds) * 1000).toFixed(0)} ms (median of ${RUNS})`);
  console.log(`single-loop baseline: ${(reference * 1000).toFixed(0)} ms (median of ${RUNS})`);
  console.log(`ratio ${ratio.toFixed(2)}x (budget <= ${BUDGET}x: ${ratio <= BUDGET ? 'met' : 'NOT met'})`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}

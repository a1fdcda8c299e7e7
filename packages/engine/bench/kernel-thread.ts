// A worker thread of the kernel benchmark's two-core figure: it reads the bars the main thread put in
// shared memory (its workerData) and builds the compiled rule sets, then on each request runs a rule
// set `runs` times back to back and answers with the trades and net P&L of its last run (so the main
// thread can check that every thread made the same trades as the single-thread run), or runs the
// reference loop `runs` times (answering its position changes as trades).
import { parentPort, workerData } from 'node:worker_threads';
import { runBacktest, runBuffers, seriesOfShared } from '@vyuha/engine';
import type { SharedSeries } from '@vyuha/engine';
import { CONFIG, referenceLoop, RULE_SETS, type RuleSetName } from './kernel-support';

export interface ThreadRequest { readonly ruleSet: RuleSetName | 'reference'; readonly runs: number }
export interface ThreadAnswer { readonly trades: number; readonly netPnl: number }

const port = parentPort;
if (port === null) throw new Error('kernel-thread.ts runs as a worker thread of kernel.bench.ts');
const series = seriesOfShared(workerData as SharedSeries);
// As the main thread's runs: one set of buffers for every run of this thread.
const buffers = runBuffers();
port.on('message', (request: ThreadRequest) => {
  let answer: ThreadAnswer = { trades: 0, netPnl: 0 };
  const { ruleSet } = request;
  if (ruleSet === 'reference') {
    for (let run = 0; run < request.runs; run += 1) answer = { trades: referenceLoop(series), netPnl: 0 };
    port.postMessage(answer);
    return;
  }
  for (let run = 0; run < request.runs; run += 1) {
    const result = runBacktest({ series, program: RULE_SETS[ruleSet](series), config: CONFIG, ...buffers });
    answer = { trades: result.summary.trades, netPnl: result.summary.netPnl };
  }
  port.postMessage(answer);
});
port.postMessage('ready');

// A worker thread of the kernel benchmark's two-core figure: it builds its own copy of the bars and
// the compiled rule sets, then on each request runs a rule set `runs` times back to back and answers with the trades and net P&L of its last run (so the main
// thread can check that every thread made the same trades as the single-thread run).
import { parentPort } from 'node:worker_threads';
import { runBacktest } from '@vyuha/engine';
import { BARS, CONFIG, RULE_SETS, syntheticSeries, type RuleSetName } from './kernel-support';

export interface ThreadRequest { readonly ruleSet: RuleSetName; readonly runs: number }
export interface ThreadAnswer { readonly trades: number; readonly netPnl: number }

const port = parentPort;
if (port === null) throw new Error('kernel-thread.ts runs as a worker thread of kernel.bench.ts');
const series = syntheticSeries(BARS);
port.on('message', (request: ThreadRequest) => {
  let answer: ThreadAnswer = { trades: 0, netPnl: 0 };
  for (let run = 0; run < request.runs; run += 1) {
    const result = runBacktest({ series, program: RULE_SETS[request.ruleSet](series), config: CONFIG });
    answer = { trades: result.summary.trades, netPnl: result.summary.netPnl };
  }
  port.postMessage(answer);
});
port.postMessage('ready');

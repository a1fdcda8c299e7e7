// A backtest thread (backtest-threads.ts): loads the engine once, then computes the runs it is
// sent, one at a time: the algorithm version compiled again from the graph as saved, an index's
// futures chain built again from its recipe, the engine's run over the series sent (a copy), and
// the rows, metrics and result document
// (backtest-outputs.ts), exactly what the job computes on its own thread. Answers each task with
// its outputs, the run's own failure (its reason), or an unexpected error.
import { parentPort } from 'node:worker_threads';
import { compileAlgorithm } from '@vyuha/engine';
import { versionCompileError } from '../backtest/algorithm-version';
import { futuresChainOf, recipeOfData } from '../backtest/prepared-run';
import type { PreparedRun } from '../backtest/prepared-run';
import { BacktestRunFailure, runOutputs } from './backtest-outputs';
import type { BacktestTask, BacktestTaskAnswer } from './backtest-threads';

const port = parentPort;
if (port === null) throw new Error('backtest-thread.ts runs only as a worker thread (backtest-threads.ts)');

/** The run's inputs as the job prepared them: a futures chain built again from its recipe over the series sent. */
function preparedOf(task: BacktestTask): PreparedRun {
  const { plan, series, config } = task;
  if (task.futures === undefined) return { plan, series, config };
  const futures = recipeOfData(task.futures);
  return { plan, series, config, futures, contracts: futuresChainOf(futures, series) };
}

function answer(task: BacktestTask): BacktestTaskAnswer {
  try {
    const compiled = compileAlgorithm(task.graph);
    if (!compiled.ok) return { id: task.id, failure: versionCompileError(task.algorithm, compiled.error) };
    const outputs = runOutputs({ prepared: preparedOf(task), program: compiled.value, runId: task.runId });
    return { id: task.id, outputs };
  } catch (error) {
    if (error instanceof BacktestRunFailure) return { id: task.id, failure: error.message };
    return { id: task.id, error: { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack ?? '' : '' } };
  }
}

port.on('message', (task: BacktestTask) => port.postMessage(answer(task)));

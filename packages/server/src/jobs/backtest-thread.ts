// A backtest thread (backtest-threads.ts): loads the engine once, then computes the runs it is
// sent, one at a time: the algorithm version compiled again from the graph as saved, an index's
// futures chain built again from its recipe (option legs: their trader made from its data over
// the copy of the candles sent), the engine's run over the series sent (a copy), and the rows,
// metrics and result document (backtest-outputs.ts), exactly what the job computes on its own
// thread. Answers each task with its outputs, the run's own failure (its reason), an unexpected
// error, or (option legs) the stored contracts the run asked for that the copy lacked.
import { parentPort } from 'node:worker_threads';
import { compileAlgorithm, runBuffers } from '@vyuha/engine';
import type { CompiledAlgorithm } from '@vyuha/engine';
import { versionCompileError } from '../backtest/algorithm-version';
import { EngineRunError, futuresChainOf, recipeOfData, runPreparedOnce } from '../backtest/prepared-run';
import type { PreparedRun } from '../backtest/prepared-run';
import { LegCandleCopy, LegCandlesCopy } from '../backtest/leg-candles';
import { legsTraderOf } from '../sweep/sweep-legs';
import type { LegsJobData } from '../sweep/sweep-legs';
import { BacktestRunFailure, engineFailure, outputsOf, runOutputs } from './backtest-outputs';
import type { BacktestTask, BacktestTaskAnswer } from './backtest-threads';

const port = parentPort;
if (port === null) throw new Error('backtest-thread.ts runs only as a worker thread (backtest-threads.ts)');
/**
 * The ledger's columns and the equity's runs of bars of every run this thread computes: a run's
 * outputs are read whole before the next task is taken, so each run writes into the last one's
 * arrays instead of growing new ones.
 */
const buffers = runBuffers();

/** The run's inputs as the job prepared them: a futures chain built again from its recipe over the series sent. */
function preparedOf(task: BacktestTask): PreparedRun {
  const { plan, series, config } = task;
  if (task.futures === undefined) return { plan, series, config };
  const futures = recipeOfData(task.futures);
  return { plan, series, config, futures, contracts: futuresChainOf(futures, series) };
}

/**
 * An option-legs pass: the engine's run with the trader the job would make, over the copy of the
 * candles sent; the contracts it asked for and the copy lacked, or the run's outputs.
 */
function legsAnswer(task: BacktestTask & { legs: LegsJobData }, program: CompiledAlgorithm): BacktestTaskAnswer {
  const { plan, series, config } = task;
  const copy = new LegCandleCopy();
  copy.receive(task.legs);
  const candles = new LegCandlesCopy(copy);
  const prepared: PreparedRun = { plan, series, config, trader: legsTraderOf(task.legs, candles, { fromBar: 0, toBar: series.length, length: series.length }) };
  let result;
  try {
    result = runPreparedOnce(prepared, program, buffers);
  } catch (error) {
    if (error instanceof EngineRunError) throw engineFailure(error);
    throw error;
  }
  const wanted = candles.takeWanted();
  if (wanted.length > 0) return { id: task.id, wanted };
  return { id: task.id, outputs: outputsOf({ result, prepared, runId: task.runId }) };
}

function answer(task: BacktestTask): BacktestTaskAnswer {
  try {
    const compiled = compileAlgorithm(task.graph);
    if (!compiled.ok) return { id: task.id, failure: versionCompileError(task.algorithm, compiled.error) };
    if (task.legs !== undefined) return legsAnswer({ ...task, legs: task.legs }, compiled.value);
    const outputs = runOutputs({ prepared: preparedOf(task), program: compiled.value, runId: task.runId, buffers });
    return { id: task.id, outputs };
  } catch (error) {
    if (error instanceof BacktestRunFailure) return { id: task.id, failure: error.message };
    return { id: task.id, error: { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack ?? '' : '' } };
  }
}

port.on('message', (task: BacktestTask) => port.postMessage(answer(task)));

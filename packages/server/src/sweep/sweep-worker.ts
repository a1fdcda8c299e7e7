// A sweep pool thread (run-pool.ts): loads the engine once, maps the series the pool shared
// (workerData) and runs the tasks it is sent, one at a time, answering each with its rows or its
// error (and says `ready` once loaded). It keeps each job's inputs until told to forget them, and the last bar range it sliced.
//
// Invariants:
// - A task's rows are `runSweepChunk` over a copy of the task's bars (`sliceSeries`, as the
//   serial walk-forward's in-sample sweep), or over the whole shared series: the same inputs as a
//   serial run, so the same rows.
// - The shared columns are only read.
import { parentPort, workerData } from 'node:worker_threads';
import { runSweepChunk, sliceSeries } from '@vyuha/engine';
import type { BarSeries } from '@vyuha/engine';
import type { FromWorker, JobMessage, SharedSeries, TaskMessage, ToWorker } from './sweep-protocol';
import { seriesOfShared, sendableError } from './sweep-protocol';

const port = parentPort;
if (port === null) throw new Error('sweep-worker.ts runs only as a worker thread of the sweep pool');

const series = seriesOfShared(workerData as SharedSeries);
const jobs = new Map<number, JobMessage>();
let sliced: { fromBar: number; toBar: number; series: BarSeries } | undefined;

function barsOf(task: TaskMessage): BarSeries {
  if (task.fromBar === 0 && task.toBar === series.length) return series;
  if (sliced === undefined || sliced.fromBar !== task.fromBar || sliced.toBar !== task.toBar) {
    sliced = { fromBar: task.fromBar, toBar: task.toBar, series: sliceSeries(series, task.fromBar, task.toBar) };
  }
  return sliced.series;
}

function runTask(task: TaskMessage): FromWorker {
  const job = jobs.get(task.job);
  if (job === undefined) return { type: 'failed', task: task.task, error: { name: 'Error', message: `sweep worker: job ${task.job} was never sent` } };
  try {
    const rows = runSweepChunk({
      series: barsOf(task), document: job.document, combinations: job.combinations, metric: job.metric, from: task.from, to: task.to,
      ...(job.config === undefined ? {} : { config: job.config }),
    });
    return { type: 'rows', task: task.task, rows };
  } catch (error) {
    return { type: 'failed', task: task.task, error: sendableError(error) };
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'job') jobs.set(message.job, message);
  else if (message.type === 'forget') jobs.delete(message.job);
  else port.postMessage(runTask(message));
});
port.postMessage({ type: 'ready' } satisfies FromWorker);

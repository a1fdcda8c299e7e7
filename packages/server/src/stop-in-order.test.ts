import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLOW_STOP_STEP_MS, stopInOrder } from './stop-in-order';

describe('stopInOrder', () => {
  afterEach(() => vi.useRealTimers());

  it('runs the steps one after another and names a slow one while it lasts, with the state', async () => {
    vi.useFakeTimers();
    const done: string[] = [];
    const warnings: string[] = [];
    let finishQueue: () => void = () => undefined;
    const stopping = stopInOrder([
      ['the HTTP server', async () => void done.push('http')],
      ['the job queue', () => new Promise<void>((resolve) => (finishQueue = () => { done.push('queue'); resolve(); }))],
      ['the database', async () => void done.push('database')],
    ], { warn: (message) => warnings.push(message), state: () => '2 connections in use' });

    await vi.advanceTimersByTimeAsync(SLOW_STOP_STEP_MS * 2 + 1);
    expect(done).toEqual(['http']);
    expect(warnings).toEqual([
      'shutdown: still stopping the job queue after 15 s (2 connections in use)',
      'shutdown: still stopping the job queue after 30 s (2 connections in use)',
    ]);
    finishQueue();
    await stopping;
    expect(done).toEqual(['http', 'queue', 'database']);
    await vi.advanceTimersByTimeAsync(SLOW_STOP_STEP_MS * 3);
    expect(warnings).toHaveLength(2);
  });

  it('stops at a step that fails, with its error', async () => {
    const done: string[] = [];
    const stopping = stopInOrder([
      ['the runners', async () => { throw new Error('runner stuck'); }],
      ['the database', async () => void done.push('database')],
    ], { warn: () => undefined, state: () => '' });
    await expect(stopping).rejects.toThrow('runner stuck');
    expect(done).toEqual([]);
  });
});

// The server's shutdown, step by step, saying which step is slow when one is.

/** A shutdown step still running after this long is named in a warning (and again each time as long). */
export const SLOW_STOP_STEP_MS = 15_000;

/**
 * Runs the shutdown's steps one after another. A step that takes longer than SLOW_STOP_STEP_MS is
 * named in a warning, repeated while it lasts, so that a shutdown that hangs says where.
 */
export async function stopInOrder(steps: ReadonlyArray<readonly [string, () => Promise<unknown>]>, report: { warn(message: string): void; state(): string }): Promise<void> {
  for (const [name, stop] of steps) {
    const started = performance.now();
    const slow = setInterval(() => {
      report.warn(`shutdown: still stopping ${name} after ${Math.round((performance.now() - started) / 1000)} s (${report.state()})`);
    }, SLOW_STOP_STEP_MS);
    try {
      await stop();
    } finally {
      clearInterval(slow);
    }
  }
}

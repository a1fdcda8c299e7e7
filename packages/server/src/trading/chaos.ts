// Named fault points for the crash tests: a process started with `VYUHA_CHAOS=<point>:<n>` kills
// itself with SIGKILL the n-th time it reaches that point (n >= 1), at once, with no cleanup: no
// finally block runs, no transaction is rolled back by us, no connection is closed, exactly as a
// worker dies when the machine loses it. Without the variable (production) every call is one
// property read. test/trading-runner/chaos-sigkill.test.ts kills a paper replay at each point.
//
// The points (each placed in the OMS, oms/oms.ts and oms/fill-ledger.ts):
// - `before-write`: placeOrder after the risk checks passed, before the decision's rows exist.
// - `after-write-before-send`: the rows and `submitted_at` written, `venue.place` not yet called.
// - `after-send-before-ack`: `venue.place` answered, the answer not yet applied to the row.
// - `mid-fill`: inside a fill's transaction, the fill row inserted, before COMMIT (it dies uncommitted).
// - `mid-square-off`: a square-off order (request.squareOff) written, before it is sent (its send started in the same write when the rate queue let it leave at once).

export const CHAOS_POINTS = ['before-write', 'after-write-before-send', 'after-send-before-ack', 'mid-fill', 'mid-square-off'] as const;
export type ChaosPoint = (typeof CHAOS_POINTS)[number];

/** The environment variable naming the point and the hit that kills: `VYUHA_CHAOS=mid-fill:3`. */
export const CHAOS_ENV = 'VYUHA_CHAOS';

interface Armed {
  /** The point that kills; undefined when only counting. */
  readonly point: ChaosPoint | undefined;
  remaining: number;
  /** `VYUHA_CHAOS_COUNT=1`: every point reached writes `chaos-point <name>` to stderr (a clean run's hit counts). */
  readonly counting: boolean;
}

/** The armed point, read once when the module loads; a malformed value is refused at once rather than never firing. */
function armedFrom(value: string | undefined, counting: boolean): Armed | undefined {
  if (value === undefined || value === '') return counting ? { point: undefined, remaining: 0, counting } : undefined;
  const match = /^([a-z-]+):([1-9][0-9]*)$/.exec(value);
  const point = CHAOS_POINTS.find((name) => name === match?.[1]);
  if (match === null || point === undefined) throw new Error(`${CHAOS_ENV}=${value}: expected <point>:<n>, n >= 1, point one of ${CHAOS_POINTS.join(', ')}`);
  return { point, remaining: Number(match[2]), counting };
}

const armed = armedFrom(process.env[CHAOS_ENV], process.env.VYUHA_CHAOS_COUNT === '1');

/**
 * Marks a fault point: the process dies here on the armed hit, otherwise nothing happens.
 * @example chaosPoint('mid-fill') // VYUHA_CHAOS=mid-fill:2: returns the first time, SIGKILL the second
 */
export function chaosPoint(name: ChaosPoint): void {
  if (armed === undefined) return;
  if (armed.counting) process.stderr.write(`chaos-point ${name}\n`);
  if (armed.point !== name) return;
  armed.remaining -= 1;
  if (armed.remaining === 0) process.kill(process.pid, 'SIGKILL');
}

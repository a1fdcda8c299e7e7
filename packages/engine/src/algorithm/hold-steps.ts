import type { Step, StepTarget } from '../language/steps';

/*
 * Hold nodes keep a short-lived signal alive so it can meet a later one
 * (`and(hold(crossover, 3 candles), rsi > 60)`). Both forms are level-based: they look at
 * whether the input is true on a bar, not at edges, so re-firing simply extends the hold.
 */

/**
 * `{ "candles": N }`: true on a bar when the input was true on this bar or on any of the N bars
 * before it. One firing gives N + 1 true bars; firing again while held restarts the count.
 */
export function holdCandlesStep(target: StepTarget, options: { source: number; candles: number }): Step {
  const { slots, slot } = target;
  const { source, candles } = options;
  let barsSinceInput = Number.POSITIVE_INFINITY;
  return () => {
    barsSinceInput = slots[source] !== 0 ? 0 : barsSinceInput + 1;
    slots[slot] = barsSinceInput <= candles ? 1 : 0;
  };
}

/**
 * `{ "until": "<expression>" }`: true on every bar where the input is true, and on every later
 * bar until (not including) the first bar where the until-condition is true:
 * held(t) = input(t) or (held(t - 1) and not until(t)). On a bar where both are true the input
 * wins (held). Firing again while held changes nothing.
 */
export function holdUntilStep(target: StepTarget, options: { source: number; until: number }): Step {
  const { slots, slot } = target;
  const { source, until } = options;
  let held = false;
  return () => {
    held = slots[source] !== 0 || (held && slots[until] === 0);
    slots[slot] = held ? 1 : 0;
  };
}

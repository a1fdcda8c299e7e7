// Synthetic market speed: generator 1-minute bars per second for one index-year and for all six
// instruments, each against a reference measured in the same run: a hand-written loop that only
// draws as many random shocks as the generator does (with the same Rng) and writes a typed array.
// The ratio says what the model itself (VIX path, bridge, OHLC, rounding) costs on top of the draws.
import { createRng } from '@vyuha/core';
import { generateSyntheticMarket, SYNTHETIC_INSTRUMENTS } from '@vyuha/market';
import type { SyntheticInstrument, SyntheticSession } from '@vyuha/market';

const REPEATS = 5;

/** Weekdays 09:15-15:30 IST between two dates: a stand-in calendar (holidays do not change the cost). */
function weekdaySessions(from: string, to: string): SyntheticSession[] {
  const sessions: SyntheticSession[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) sessions.push({ date: new Date(day).toISOString().slice(0, 10), openMinute: 555, closeMinute: 930 });
  }
  return sessions;
}

/** Runs the generator to the end, touching each close so nothing is optimised away; returns bars. */
function runGenerator(sessions: readonly SyntheticSession[], instruments: readonly SyntheticInstrument[]): number {
  let bars = 0;
  let checksum = 0;
  for (const month of generateSyntheticMarket({ sessions, seed: 'bench', instruments })) {
    for (const series of month.series) {
      bars += series.close.length;
      checksum += series.close[series.close.length - 1]!;
    }
  }
  if (checksum <= 0) throw new Error('generator produced no prices');
  return bars;
}

/** The reference: `shocksPerStep` unit-variance draws per step, summed into a typed array of bars. */
function runReference(steps: number, shocksPerStep: number): number {
  const rng = createRng('bench-reference');
  const column = new Float64Array(steps);
  for (let step = 0; step < steps; step += 1) {
    let sum = 0;
    for (let shock = 0; shock < shocksPerStep; shock += 1) sum += rng.normal();
    column[step] = sum;
  }
  return column[steps - 1]!;
}

function bestSeconds(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

function measure(label: string, input: { sessions: SyntheticSession[]; instruments: readonly SyntheticInstrument[]; shocksPerStep: number }): void {
  const bars = runGenerator(input.sessions, input.instruments);
  const steps = bars / input.instruments.length;
  const generatorSeconds = bestSeconds(() => runGenerator(input.sessions, input.instruments));
  const referenceSeconds = bestSeconds(() => runReference(steps, input.shocksPerStep));
  const format = (value: number): string => Math.round(value).toLocaleString('en-IN');
  console.log(`${label}`);
  console.log(`  bars: ${format(bars)} (${input.instruments.length} instrument(s) x ${format(steps)} minutes)`);
  console.log(`  generator: ${(generatorSeconds * 1000).toFixed(1)} ms, ${format(bars / generatorSeconds)} bar-minutes/s`);
  console.log(`  reference (${input.shocksPerStep} normal draws per minute into a Float64Array): ${(referenceSeconds * 1000).toFixed(1)} ms`);
  console.log(`  ratio generator / reference: ${(generatorSeconds / referenceSeconds).toFixed(2)}x`);
}

const year = weekdaySessions('2024-01-01', '2024-12-31');
// One index: the market shock and the VIX shock are drawn per minute (NIFTY 50 is the market).
measure('one index-year (NIFTY 50, 2024)', { sessions: year, instruments: ['NIFTY 50'], shocksPerStep: 2 });
// All six: market, financials, VIX and the own shocks of BANK, FIN, MID SELECT and SENSEX.
measure('all instruments, one year (2024)', { sessions: year, instruments: SYNTHETIC_INSTRUMENTS, shocksPerStep: 7 });
measure('all instruments, 2020-01-01 to 2026-06-30', { sessions: weekdaySessions('2020-01-01', '2026-06-30'), instruments: SYNTHETIC_INSTRUMENTS, shocksPerStep: 7 });

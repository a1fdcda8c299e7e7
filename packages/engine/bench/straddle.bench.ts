// A year of 1-minute NIFTY (synthetic, 2025) with a short ATM straddle every day: a Buy signal at
// the close of the 09:19 bar sells the current-weekly ATM CE and PE at the 09:20 open, 25% stop
// per leg, legs priced every minute on the synthetic chain from the synthetic INDIA VIX, square-off
// at 15:15, charges from the schedule. Budget (docs/BUDGETS.md): <= 1 s for the year. The reference is
// the bare cost of the same pricing work without the kernel: Black-76 at the open, high, low and
// close of both legs on every minute from 09:20 to 15:15, at a fixed vol, in one loop.
import { paise } from '@vyuha/core';
import { generateSyntheticMarket, isRegularTradingDay, joinSyntheticSeries } from '@vyuha/market';
import type { SyntheticMonth } from '@vyuha/market';
import { black76Price, optionsLegsTraderFactory, parseOptionsLegsConfig } from '@vyuha/engine';
// The kernel's parts, from this package's own source until the kernel's exports land in its index.
import type { BarSeries, SignalProgram } from '../src/algorithm/program';
import { chargeModelOf } from '../src/kernel/charges-model';
import { Kernel } from '../src/kernel/kernel';
import { Ledger } from '../src/kernel/ledger';
import { HistoryFeed, SimulatedClock } from '../src/kernel/ports';

const BUDGET_SECONDS = 1;
const OPEN_MINUTE = 9 * 60 + 15;
const CLOSE_MINUTE = 15 * 60 + 30;
const SIGNAL_MINUTE = 9 * 60 + 19;
const IST_OFFSET_MS = 19_800_000;

function sessionsOf(year: number): { date: string; openMinute: number; closeMinute: number }[] {
  const sessions = [];
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (isRegularTradingDay('NSE', date as never)) sessions.push({ date, openMinute: OPEN_MINUTE, closeMinute: CLOSE_MINUTE });
  }
  return sessions;
}

const generationStart = performance.now();
const months: SyntheticMonth[] = [...generateSyntheticMarket({ sessions: sessionsOf(2025), seed: 'straddle-bench', instruments: ['NIFTY 50', 'INDIA VIX'] })];
const nifty = joinSyntheticSeries(months, 'NIFTY 50');
const vixSeries = joinSyntheticSeries(months, 'INDIA VIX');
const length = nifty.time.length;
const toRupees = (column: Int32Array): Float64Array => Float64Array.from(column, (value) => value / 100);
const series: BarSeries = {
  length, time: nifty.time, open: toRupees(nifty.open), high: toRupees(nifty.high), low: toRupees(nifty.low), close: toRupees(nifty.close),
  volume: new Float64Array(length), oi: new Float64Array(length).fill(Number.NaN),
};
const vix = toRupees(vixSeries.close);
const minuteOf = (time: number): number => Math.floor(((time + IST_OFFSET_MS) % 86_400_000) / 60_000);
const signals = new Int8Array(length);
for (let index = 0; index < length; index += 1) if (minuteOf(series.time[index]!) === SIGNAL_MINUTE) signals[index] = 1;
console.log(`data: ${length.toLocaleString('en-IN')} 1-minute NIFTY bars (${months.length} months), generated in ${((performance.now() - generationStart) / 1000).toFixed(2)} s (not timed below)`);

const config = parseOptionsLegsConfig({
  underlying: 'NIFTY',
  onBuy: ['CE', 'PE'].map((option) => ({ option, side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } })),
});

function runStraddleYear(): { seconds: number; ledger: Ledger } {
  const start = performance.now();
  const charges = { kind: 'schedule', exchange: 'NSE', instrument: 'option' } as const;
  const ledger = new Ledger({ capital: paise(50_000_000), chargeModel: chargeModelOf(charges) });
  const program: SignalProgram = { warmup: 0, onBar: (index) => (signals[index] === 1 ? 1 : 0) };
  const kernel = new Kernel({
    feed: new HistoryFeed(series), clock: new SimulatedClock(), program, ledger,
    rules: { type: 'intraday', entryCutoffMinute: 15 * 60, squareOffMinute: 15 * 60 + 15 },
    trader: optionsLegsTraderFactory({ config, vix, fill: 'next-open', slippage: { kind: 'none' } }),
  });
  kernel.run();
  return { seconds: (performance.now() - start) / 1000, ledger };
}

/** The reference: the pricing alone, 8 Black-76 prices per minute while the straddle is on. */
function referenceLoop(): { seconds: number; checksum: number } {
  const start = performance.now();
  let checksum = 0;
  let strike = 0;
  let expiryMs = 0;
  for (let index = 0; index < length; index += 1) {
    const time = series.time[index]!;
    const minute = minuteOf(time);
    if (minute === SIGNAL_MINUTE + 1) {
      strike = Math.round(series.open[index]! / 50) * 50;
      expiryMs = time + 3 * 86_400_000;
    }
    if (minute <= SIGNAL_MINUTE || minute >= 15 * 60 + 15) continue;
    const years = (expiryMs - time) / (365 * 86_400_000);
    const growth = Math.exp(0.065 * years);
    for (const spot of [series.open[index]!, series.high[index]!, series.low[index]!, series.close[index]!]) {
      checksum += black76Price({ forward: spot * growth, strike, years, vol: 0.13, rate: 0.065, type: 'call' });
      checksum += black76Price({ forward: spot * growth, strike, years, vol: 0.13, rate: 0.065, type: 'put' });
    }
  }
  return { seconds: (performance.now() - start) / 1000, checksum };
}

const cold = runStraddleYear();
const warm = [runStraddleYear(), runStraddleYear(), runStraddleYear()].reduce((best, run) => (run.seconds < best.seconds ? run : best));
referenceLoop();
const reference = [referenceLoop(), referenceLoop(), referenceLoop()].reduce((best, run) => (run.seconds < best.seconds ? run : best));

const { ledger } = warm;
const rupees = (value: number): string => `Rs ${(value / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const byReason = new Map<string, number>();
for (const trade of ledger.trades) byReason.set(trade.exitReason, (byReason.get(trade.exitReason) ?? 0) + 1);
const gross = ledger.trades.reduce((sum, trade) => sum + trade.gross, 0);
const charges = ledger.fills.reduce((sum, fill) => sum + fill.chargesTotal, 0);
const winningDays = ledger.days.filter((day) => day.net > 0).length;

console.log(`straddle year (cold, first run)                 ${cold.seconds.toFixed(3)} s`);
console.log(`straddle year (best of 3)                       ${warm.seconds.toFixed(3)} s  ${Math.round(length / warm.seconds).toLocaleString('en-IN')} bars/s   budget ${BUDGET_SECONDS} s: ${warm.seconds <= BUDGET_SECONDS ? 'MET' : 'MISSED'}`);
console.log(`reference: bare Black-76 pricing loop           ${reference.seconds.toFixed(3)} s  (checksum ${reference.checksum.toFixed(0)})`);
console.log(`ratio straddle / reference                      ${(warm.seconds / reference.seconds).toFixed(2)}x`);
console.log(`days ${ledger.days.length}, orders ${ledger.fills.length}, trades ${ledger.trades.length} (${[...byReason].map(([reason, count]) => `${reason} ${count}`).join(', ')})`);
console.log(`gross ${rupees(gross)}, charges ${rupees(charges)}, net ${rupees(gross - charges)}, winning days ${winningDays}/${ledger.days.length}`);

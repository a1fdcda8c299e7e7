// The feeds' own share of a paper replay: a year of 1-minute NIFTY (synthetic, 2025) cut into its
// tick paths (the engine's candleTicks in each bar's window) and rebuilt by the CandleBuilder at
// 1 and 5 minutes, reported as ticks per second and minutes of market per second. This is the
// floor under the runtime's replay benchmark (which adds the database, the kernel and the OMS);
// the reference is a bare loop that makes the same four prices per bar and keeps min/max/last.
//   cd packages/engine && npm run bench feeds
import { generateSyntheticMarket, isRegularTradingDay, joinSyntheticSeries } from '@vyuha/market';
import { barWindowOf, CandleBuilder, candleTickColumns, candleTicks } from '@vyuha/engine';
import type { FeedTick } from '@vyuha/engine';

const RUNS = 5;

function sessionsOf(year: number): { date: string; openMinute: number; closeMinute: number }[] {
  const sessions = [];
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    if (isRegularTradingDay('NSE', date as never)) sessions.push({ date, openMinute: 555, closeMinute: 930 });
  }
  return sessions;
}

const nifty = joinSyntheticSeries(generateSyntheticMarket({ sessions: sessionsOf(2025), seed: 'feeds-bench', instruments: ['NIFTY 50'] }), 'NIFTY 50');
const bars = nifty.time.length;

function replay(interval: number): number {
  const builder = new CandleBuilder({ intervalMinutes: interval, exchange: 'NSE' });
  const ticks = candleTickColumns();
  let candles = 0;
  for (let bar = 0; bar < bars; bar += 1) {
    candleTicks({ open: nifty.open[bar]!, high: nifty.high[bar]!, low: nifty.low[bar]!, close: nifty.close[bar]!, volume: 0 },
      barWindowOf({ start: nifty.time[bar]!, intervalMinutes: 1, exchange: 'NSE' }), ticks);
    for (let tick = 0; tick < 4; tick += 1) {
      const feedTick: FeedTick = { instrumentId: 1, time: ticks.time[tick]!, price: ticks.price[tick]!, volume: ticks.volume[tick]!, synthetic: true };
      if (builder.push(feedTick) !== undefined) candles += 1;
    }
  }
  return candles + builder.closeDue(Number.MAX_SAFE_INTEGER).length;
}

function reference(): number {
  let checksum = 0;
  let high = 0;
  let low = Number.POSITIVE_INFINITY;
  for (let bar = 0; bar < bars; bar += 1) {
    const rising = nifty.close[bar]! >= nifty.open[bar]!;
    const path = [nifty.open[bar]!, rising ? nifty.low[bar]! : nifty.high[bar]!, rising ? nifty.high[bar]! : nifty.low[bar]!, nifty.close[bar]!];
    for (const price of path) {
      if (price > high) high = price;
      if (price < low) low = price;
    }
    checksum += path[3]!;
  }
  return checksum + high - low;
}

function best(run: () => number): { seconds: number; result: number } {
  let seconds = Number.POSITIVE_INFINITY;
  let result = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    result = run();
    seconds = Math.min(seconds, (performance.now() - start) / 1_000);
  }
  return { seconds, result };
}

const base = best(reference);
console.log(`bars: ${bars} one-minute bars (${bars * 4} ticks)`);
console.log(`reference loop: ${(base.seconds * 1_000).toFixed(1)} ms`);
for (const interval of [1, 5]) {
  const { seconds, result } = best(() => replay(interval));
  console.log(`ticks -> ${interval}-minute candles: ${(seconds * 1_000).toFixed(1)} ms, ${result} candles, ` +
    `${Math.round((bars * 4) / seconds).toLocaleString('en-IN')} ticks/s, ${Math.round(bars / seconds).toLocaleString('en-IN')} market minutes/s, ` +
    `${(seconds / base.seconds).toFixed(1)}x the reference`);
}

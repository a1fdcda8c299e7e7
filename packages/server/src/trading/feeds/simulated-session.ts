// One session of the simulated market, decided in advance and the same every time it is asked
// for: the synthetic market's generator (packages/market/src/synthetic/) run for that one
// session, each index starting at its last stored close before the session (so the day opens
// where the history ends, without a gap), seeded by the seed and the date (so a restart
// mid-session makes the same minutes again and continues them). Inside each minute bar the
// price moves second by second along the engine's intrabarPath, seeded by date, instrument and
// minute, which keeps the bar exact: the candle builder fed these ticks gives back the bar.
import { createRng, epochDayOf, IST_OFFSET_MS } from '@vyuha/core';
import type { IsoDate, Rng } from '@vyuha/core';
import { intrabarPath } from '@vyuha/engine';
import type { FeedTick } from '@vyuha/engine';
import { generateSyntheticMarket } from '@vyuha/market';
import type { SyntheticInstrument, SyntheticSeries, TradingSession } from '@vyuha/market';

const MS_PER_MINUTE = 60_000;
const MS_PER_SECOND = 1_000;
const MS_PER_DAY = 86_400_000;
/** Ticks per minute bar: one a second. */
export const TICKS_PER_MINUTE = 60;
const TICK_PAISE = 5;

/** An index the session continues, with where its stored history ends. */
export interface SessionStart {
  readonly instrumentId: number;
  readonly name: SyntheticInstrument;
  /** Close of the last stored candle before the session, paise. */
  readonly lastClosePaise: number;
}

interface SessionSeries {
  readonly instrumentId: number;
  readonly name: SyntheticInstrument;
  readonly bars: SyntheticSeries;
  readonly rng: Rng;
  /** The minute whose path is in `path` (cached: 60 ticks read it). */
  pathMinute: number;
  readonly path: Float64Array;
}

/**
 * The minute bars and second ticks of one session.
 * @example const day = new SimulatedSession({ date, session, seed: 'vyuha-demo-world', starts }); day.ticksAt(day.openMs) // the opens
 */
export class SimulatedSession {
  readonly date: IsoDate;
  readonly openMs: number;
  readonly closeMs: number;
  readonly minutes: number;
  private readonly series: readonly SessionSeries[];

  constructor(input: { readonly date: IsoDate; readonly session: TradingSession; readonly seed: string; readonly starts: readonly SessionStart[] }) {
    const { date, session, starts } = input;
    this.date = date;
    const dayStart = epochDayOf(date) * MS_PER_DAY - IST_OFFSET_MS;
    this.openMs = dayStart + session.open * MS_PER_MINUTE;
    this.closeMs = dayStart + session.close * MS_PER_MINUTE;
    this.minutes = session.close - session.open;
    const seed = `${input.seed}/simulated-market/${date}`;
    const startLevels: Partial<Record<SyntheticInstrument, number>> = {};
    for (const start of starts) startLevels[start.name] = start.lastClosePaise / 100;
    const names = starts.map((start) => start.name);
    const months = [...generateSyntheticMarket({
      sessions: [{ date, openMinute: session.open, closeMinute: session.close }], seed, instruments: names, startLevels,
    })];
    const ticksRoot = createRng(seed).fork('ticks');
    this.series = starts.map((start) => {
      const bars = months[0]?.series.find((series) => series.instrument === start.name);
      if (bars === undefined) throw new Error(`the synthetic market made no ${start.name} bars for ${date}`);
      return { instrumentId: start.instrumentId, name: start.name, bars, rng: ticksRoot.fork(start.name), pathMinute: -1, path: new Float64Array(TICKS_PER_MINUTE) };
    });
  }

  /** Instruments in the session. */
  get instrumentIds(): readonly number[] {
    return this.series.map((series) => series.instrumentId);
  }

  /** Their names, in the same order. */
  get instrumentNames(): readonly SyntheticInstrument[] {
    return this.series.map((series) => series.name);
  }

  /** The 1-minute bars of minutes [from, to) of each instrument, as candle columns. */
  candles(from: number, to: number): { instrumentId: number; candles: { length: number; time: Float64Array; open: Int32Array; high: Int32Array; low: Int32Array; close: Int32Array; volume: Float64Array } }[] {
    return this.series.map(({ instrumentId, bars }) => ({
      instrumentId,
      candles: {
        length: Math.max(0, to - from), time: bars.time.slice(from, to), open: bars.open.slice(from, to), high: bars.high.slice(from, to),
        low: bars.low.slice(from, to), close: bars.close.slice(from, to), volume: bars.volume.slice(from, to),
      },
    }));
  }

  /** The tick of each instrument at `time`, a whole second inside the session (empty outside it). */
  ticksAt(time: number): FeedTick[] {
    if (time < this.openMs || time >= this.closeMs || (time - this.openMs) % MS_PER_SECOND !== 0) return [];
    const minute = Math.floor((time - this.openMs) / MS_PER_MINUTE);
    const second = ((time - this.openMs) % MS_PER_MINUTE) / MS_PER_SECOND;
    return this.series.map((series) => {
      if (series.pathMinute !== minute) {
        const { bars } = series;
        intrabarPath(
          { open: bars.open[minute] as number, high: bars.high[minute] as number, low: bars.low[minute] as number, close: bars.close[minute] as number },
          { steps: TICKS_PER_MINUTE, tick: TICK_PAISE, rng: series.rng.fork(String(minute)) },
          series.path,
        );
        series.pathMinute = minute;
      }
      return { instrumentId: series.instrumentId, time, price: series.path[second] as number, volume: 0, synthetic: true };
    });
  }
}

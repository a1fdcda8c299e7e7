// Option legs on the market as it happens: one NSE session of an option-legs strategy deployed
// without a replay, on the live feed (the simulated market's). The session's shape is a rule
// strategy's (market-run.ts: wait for the session, warm up on the stored bars of the
// WARM_UP_SESSIONS before, bars closed on time, a resume played again from the market's own past
// ticks): an intraday run is one session, and the runner hands over to the next session's run; a
// swing run goes on from session to session (the runner calls this again after each close for the
// same run, which plays its earlier sessions again from the market's past ticks, as a restart
// does, then the new one live), its legs held overnight as NRML and those still open at their
// expiry's close settled by the OMS (legs-paper-run.ts). The trading is the legs' paper run
// (legs-paper-run.ts: every leg fill an OMS order on the paper venue). What differs from a legs
// replay:
//
// - Premiums come from the synthetic chain only (there are no stored option candles of the
//   market's contracts): every tick of the index is priced for each contract in play from that
//   tick's price and the bar's VIX (leg-premium-ticks.ts).
// - INDIA VIX is live: VIX bars at the strategy's interval from the market's VIX ticks, each bar of
//   the index priced on the VIX as it stood when the bar opened (legs-market-vix.ts); warm-up bars
//   take the stored VIX candles.
// - Many ticks a bar: the venue matches each leg's stop and target on every premium tick, so the
//   kernel adopts the venue's leg exits (engine options-legs/adopted-leg-exits.ts) instead of its
//   own four-tick match, as a rule strategy's kernel adopts its stops (engine kernel/adopted-venue.ts).
//
// MANUAL: the program's signals wait for the user as a rule strategy's do (pending-signals.ts):
// an accepted signal opens or closes the legs at the first bar close after it was accepted.
//
// Not run here, refused before anything is written: the shapes legs-paper-levels.ts refuses.
import { istDate } from '@vyuha/core';
import { AdoptedLegExits, barStartOf, GrowingBarSeries, optionsLegsTraderFactory, startSteppedRun } from '@vyuha/engine';
import type { DeployableConfig, FeedTick, OptionsLegsConfig } from '@vyuha/engine';
import type pg from 'pg';
import { loadRunCandles } from '../../backtest/stored-candles';
import { contractInstrumentId } from '../../jobs/backtest-results';
import { ManualScheduler } from '../feeds/scheduler';
import { LegPremiumTicks } from './leg-premium-ticks';
import { LegsMarketVix } from './legs-market-vix';
import { legsPaperRefusal } from './legs-paper-levels';
import { LegsPaperRun } from './legs-paper-run';
import { LEG_SLIPPAGE, OPTION_TICK_PAISE } from './legs-replay';
import { barsBetween, endSession, playLive, playPastTicks, playStoredMinutes, sessionFor, stepStoredBars, SWING_WAKE_BEFORE_OPEN_MS, WAKE_BEFORE_OPEN_MS, warmUpFrom } from './market-session';
import type { MarketRunOptions, MarketRunOutcome } from './market-session';
import { withPaperOms } from './paper-oms';
import { gatedProgram } from './pending-signals';
import type { PauseInterval } from './pause-book';
import { compiledAlgorithmOf, paperConfigOf, PaperRunFailure, prepareDeployedRange, RELEASE } from './replay-run';

/** The run row as runMarketSession read it. */
export interface LegsMarketRunRow {
  readonly user_id: string;
  readonly strategy_id: string | null;
  readonly algo_id: string | null;
  readonly started_ms: string;
}

/** The backtest's preparation fills the legs at the next bar's open (stored-run.ts), and so does the market. */
const LEG_FILL = 'next-open';

async function vixInstrumentId(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'INDIA VIX'`);
  const id = rows[0]?.instrument_id;
  if (id === undefined) throw new PaperRunFailure('there is no INDIA VIX index, which the synthetic option chain prices the legs from');
  return id;
}

/**
 * Runs one session of an option-legs PAPER strategy on the market (intraday, or the next session
 * of a swing run); runMarketSession dispatches here. The caller owns the run's status (strategy-runners.ts).
 */
export async function runLegsMarketSession(
  options: MarketRunOptions,
  context: {
    readonly run: LegsMarketRunRow; readonly config: DeployableConfig; readonly legs: OptionsLegsConfig; readonly instrumentId: number;
    readonly pauses: readonly PauseInterval[];
  },
): Promise<MarketRunOutcome> {
  const { pool, runId, scheduler, signal } = options;
  const { run, config, legs, instrumentId } = context;
  const refusal = legsPaperRefusal(legs, config.type);
  if (refusal !== undefined) throw new PaperRunFailure(refusal);

  const swing = config.type === 'swing';
  // A swing run's session is the one open now or next; it plays the run's sessions from the first again.
  const first = sessionFor(Number(run.started_ms));
  const session = swing ? sessionFor(Math.max(scheduler.now(), first.open)) : first;
  const aborted = (): boolean => signal?.aborted === true;
  await scheduler.sleepUntil(session.open - (swing ? SWING_WAKE_BEFORE_OPEN_MS : WAKE_BEFORE_OPEN_MS), signal);
  if (aborted()) {
    const released = signal?.reason === RELEASE;
    return { bars: 0, fills: 0, stopped: !released, released, squaredOff: 0, session: undefined, sessionEnded: false, continues: false, result: undefined };
  }

  const program = await compiledAlgorithmOf(pool, config);
  const intervalMinutes = config.interval;
  const ownFrom = barStartOf(Math.max(Number(run.started_ms), first.open), intervalMinutes);
  const dateRange = { from: warmUpFrom(first.date), to: session.date };
  const prepared = await prepareDeployedRange(pool, { config, instrumentId, dateRange, needs: 'the strategy needs stored bars to warm up on' });
  const stored = prepared.series;
  let warmUp = 0;
  while (warmUp < stored.length && (stored.time[warmUp] as number) < ownFrom) warmUp += 1;
  const series = new GrowingBarSeries(warmUp + barsBetween({ from: ownFrom, first, last: session, intervalMinutes }));

  // INDIA VIX per bar: stored candles for the warm-up, the market's ticks from the run's first bar.
  const vixId = await vixInstrumentId(pool);
  const vix = new LegsMarketVix({ intervalMinutes, ownFrom });
  vix.addStored(await loadRunCandles({ pool, instrumentId: vixId, dateRange, intervalMinutes }));
  const levels = new Float64Array(series.capacity).fill(Number.NaN);
  const missing = vix.fillLevels(stored, warmUp, levels);
  if (missing !== undefined) throw new PaperRunFailure(missing);

  // MANUAL: the program's signals wait for the user's confirmation (pending-signals.ts).
  const { gate, source } = gatedProgram(program, {
    manual: config.manual, pool, runId, strategyId: run.strategy_id, userId: run.user_id, instrument: config.instrument, series, expiresAt: session.close, signalsFrom: warmUp,
  });
  const adopted = new AdoptedLegExits();
  const stepped = startSteppedRun({
    series, program: source, intervalMinutes, config: paperConfigOf(prepared, config), signalsFrom: warmUp,
    trader: optionsLegsTraderFactory({ config: legs, vix: levels, fill: LEG_FILL, slippage: LEG_SLIPPAGE, adopted }),
  });
  if (gate !== undefined) gate.direction = stepped.config.direction;
  stepStoredBars(stepped, stored, warmUp);

  // Moved at every tick: no event-loop turns when nothing sleeps until then (scheduler.ts).
  const clock = new ManualScheduler(ownFrom, { settle: 'when-waking' });
  const orders = {
    pool, runId, userId: run.user_id, strategyId: run.strategy_id, algoId: run.algo_id, clock, killSwitches: options.killSwitches, log: options.log,
    rules: { tickSizePaise: OPTION_TICK_PAISE, slippage: LEG_SLIPPAGE }, charges: stepped.config.charges, strategyMaxLossPaise: prepared.config.dailyMaxLoss,
  };
  const feed = options.market.feed();
  try {
    return await withPaperOms(orders, async ({ oms, venue }) => {
      const underlying = { instrumentId, tradingSymbol: legs.underlying };
      const pauses = options.pauses ?? context.pauses;
      const paper = new LegsPaperRun({
        runId, stepped, series, legs, premiums: new LegPremiumTicks({ series, vix: levels }), intervalMinutes, exchange: 'NSE', signalInstrumentId: instrumentId,
        oms, venue, clock, product: swing ? 'NRML' : 'MIS', adopted,
        instrumentIdOf: (symbol) => contractInstrumentId(pool, { underlying, symbol, tradeDate: istDate(clock.now()) }),
        beforeBarOpen: (index, barStart) => {
          const level = vix.levelAt(barStart);
          if (level === undefined) throw new PaperRunFailure(`no INDIA VIX before the bar at ${new Date(barStart).toISOString()}`);
          levels[index] = level;
        },
        ...(pauses.length === 0 ? {} : { pauses }),
        ...(gate === undefined ? {} : { signalGate: gate }),
      });
      options.onPaperRun?.(paper);
      // Subscribed before the past is read: a tick made meanwhile waits in the feed's queue.
      const subscribed = feed.subscribe([instrumentId, vixId]);
      if (!subscribed.ok) throw new PaperRunFailure(subscribed.error.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
      const until = scheduler.now();
      const vixSink = { onTick: async (tick: FeedTick) => vix.onTick(tick) };
      const pastVix = options.market.pastTicks?.(vixId, ownFrom, until);
      const pastIndex = options.market.pastTicks?.(instrumentId, ownFrom, until);
      // The VIX of the past first: a bar's level is read by its start, so it only needs to be there before the index's bars are.
      let liveFrom: number;
      if (pastVix === undefined || pastIndex === undefined) {
        await playStoredMinutes({ pool, paper: vixSink, instrumentId: vixId, dates: { from: first.date, to: session.date }, from: ownFrom, until });
        liveFrom = await playStoredMinutes({ pool, paper, instrumentId, dates: { from: first.date, to: session.date }, from: ownFrom, until });
      } else {
        await playPastTicks(vixSink, pastVix, { from: ownFrom, until });
        liveFrom = await playPastTicks(paper, pastIndex, { from: ownFrom, until });
      }

      const live = {
        onTick: (tick: FeedTick): Promise<void> => (tick.instrumentId === vixId ? vixSink.onTick(tick) : paper.onTick(tick)),
        closeDue: (now: number) => paper.closeDue(now),
      };
      const played = await playLive({ feed, scheduler, signal, session, intervalMinutes, run: live, liveFrom });
      return endSession({ played, signal, run: paper, oms, gate, stepped, session, continues: swing });
    });
  } finally {
    feed.stop();
  }
}

// A PAPER replay of option legs on an index: the range prepared as the backtest prepares it
// (backtest/stored-run.ts `prepareStoredRun` with legs: the index's candles, INDIA VIX, the stored
// option candles, the option-legs trader), the stepped kernel with that trader, an OMS on a
// run-scoped paper venue, the replay feed of the index, and the legs' paper run
// (legs-paper-run.ts), which sends every leg fill to the venue and checks it against the kernel's.
// So the replay makes the backtest's fills to the paisa (test/trading-runner/paper-legs-parity.test.ts),
// intraday (MIS) or swing (NRML: legs held overnight, and those held to their expiry settled at
// intrinsic value through the OMS, test/trading-runner/paper-legs-swing.test.ts).
//
// `runPaperReplay` (replay-run.ts) is the counterpart for an instrument or its futures; this one
// takes the same request, with the prepared trader and option candles that `prepareStoredRun`
// returns for legs.
import { istDate, istEpochDay } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { GrowingBarSeries, startSteppedRun } from '@vyuha/engine';
import type { BarSeries, SlippageModel, TraderFactory } from '@vyuha/engine';
import type pg from 'pg';
import { EngineRunError, runPrepared } from '../../backtest/stored-run';
import { loadRunCandles, vixAtBars } from '../../backtest/stored-candles';
import type { StoredLegCandles } from '../../backtest/stored-candles';
import { contractInstrumentId } from '../../jobs/backtest-results';
import { ManualScheduler } from '../feeds/scheduler';
import { LegPremiumTicks } from './leg-premium-ticks';
import { legsPaperRefusal } from './legs-paper-levels';
import { LegsPaperRun } from './legs-paper-run';
import { withPaperOms } from './paper-oms';
import { PaperRunFailure, playReplay } from './replay-common';
import type { PaperReplayOutcome, PaperReplayRequest, PreparedPaperReplay } from './replay-common';

/** The legs' fills meet premiums without slippage: `prepareStoredRun` builds the option-legs trader so, and the venue must match alike. */
export const LEG_SLIPPAGE: SlippageModel = { kind: 'none' };
/** Index options trade on a 0.05 tick. */
export const OPTION_TICK_PAISE = 5;

/** A range prepared with legs: `prepareStoredRun`'s trader and stored option candles besides the series and config. */
export interface PreparedLegsReplay extends PreparedPaperReplay {
  readonly trader?: TraderFactory | undefined;
  readonly legCandles?: StoredLegCandles | undefined;
}

/** `runPaperReplay`'s request for option legs; `onPaperRun` is told the legs' run. */
export interface LegsPaperReplayRequest extends Omit<PaperReplayRequest, 'prepared' | 'onPaperRun'> {
  readonly prepared: PreparedLegsReplay;
  readonly onPaperRun?: (paper: LegsPaperRun) => void;
}

/** INDIA VIX per bar of `series` over the range, as the backtest's preparation reads it for the synthetic chain. */
async function vixOfBars(pool: pg.Pool, request: { series: BarSeries; dateRange: { from: IsoDate; to: IsoDate }; intervalMinutes: number }): Promise<Float64Array> {
  const { dateRange } = request;
  const { rows } = await pool.query<{ instrument_id: number }>(`SELECT instrument_id FROM instruments WHERE kind = 'index' AND name = 'INDIA VIX'`);
  const vixId = rows[0]?.instrument_id;
  const vix = vixId === undefined ? undefined : await loadRunCandles({ pool, instrumentId: vixId, dateRange, intervalMinutes: request.intervalMinutes });
  if (vix === undefined || vix.length === 0) throw new PaperRunFailure(`no stored INDIA VIX candles from ${dateRange.from} to ${dateRange.to} (the synthetic option chain needs them)`);
  return vixAtBars(request.series, vix);
}

/**
 * Replays a prepared option-legs range through the runtime under an existing PAPER run row; the
 * caller owns the row's status. Throws PaperRunFailure for what the run cannot do (see
 * `legsPaperRefusal`, a feed that failed) and PaperDivergence when a venue fill is not the kernel's.
 * @example (await runLegsPaperReplay({ pool, runId, userId, strategyId: null, algoId: null, instrumentId, prepared, program, intervalMinutes: 5, replay })).result.fills
 */
export async function runLegsPaperReplay(request: LegsPaperReplayRequest): Promise<PaperReplayOutcome> {
  const { pool, runId, userId, prepared, replay, intervalMinutes, instrumentId } = request;
  const { plan, trader } = prepared;
  if (plan.kind !== 'option-legs') throw new PaperRunFailure(`a legs replay trades option legs; this range was prepared for ${plan.kind}`);
  if (trader === undefined) throw new PaperRunFailure('the range was prepared without the option-legs trader (prepare it with the legs)');
  const stored = prepared.series;
  if (prepared.legCandles !== undefined) {
    // The trader reads stored option candles as it meets contracts; a pass of the backtest loads every one it will ask for.
    try {
      await runPrepared(pool, {
        prepared: { plan, series: stored, config: prepared.config, trader, legCandles: prepared.legCandles }, program: request.program, dateRange: replay, intervalMinutes,
      });
    } catch (error) {
      if (error instanceof EngineRunError) throw new PaperRunFailure(error.message);
      throw error;
    }
  }
  const vix = await vixOfBars(pool, { series: stored, dateRange: replay, intervalMinutes });
  const series = new GrowingBarSeries(stored.length);
  const times = Float64Array.from(stored.time.subarray(0, stored.length));
  const stepped = startSteppedRun({ series, program: request.program, intervalMinutes, config: prepared.config, trader });
  // Refused before anything is written (the stepped run is pure).
  const refusal = legsPaperRefusal(plan.legs, stepped.config.type);
  if (refusal !== undefined) throw new PaperRunFailure(refusal);
  const premiums = new LegPremiumTicks({ series, vix, candles: prepared.legCandles });
  const clock = new ManualScheduler(times[0] ?? 0);
  const session = {
    pool, runId, userId, strategyId: request.strategyId, algoId: request.algoId, clock, killSwitches: request.killSwitches, log: request.log,
    rules: { tickSizePaise: OPTION_TICK_PAISE, slippage: LEG_SLIPPAGE }, charges: stepped.config.charges, strategyMaxLossPaise: prepared.config.dailyMaxLoss,
  };
  return withPaperOms(session, async ({ oms, venue }) => {
    const last = times.length - 1;
    const underlying = { instrumentId, tradingSymbol: plan.legs.underlying };
    const paper = new LegsPaperRun({
      runId, stepped, series, legs: plan.legs, premiums, intervalMinutes, exchange: 'NSE', signalInstrumentId: instrumentId,
      oms, venue, clock, product: stepped.config.type === 'swing' ? 'NRML' : 'MIS',
      instrumentIdOf: (symbol) => contractInstrumentId(pool, { underlying, symbol, tradeDate: istDate(clock.now()) }),
      endingOf: (index) => ({
        endOfData: index === last,
        endOfDay: index < last && istEpochDay(times[index + 1] as number) !== istEpochDay(times[index] as number),
      }),
      ...(request.pauses === undefined ? {} : { pauses: request.pauses }),
    });
    request.onPaperRun?.(paper);
    return playReplay(request, { paper, oms, result: () => stepped.result() });
  });
}

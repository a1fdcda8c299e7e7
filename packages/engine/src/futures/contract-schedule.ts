// Which futures contract an index backtest trades at each bar: the near month, i.e. the contract
// expiring on the index's next monthly expiry (the expiry calendar's monthly row; a contract is
// still the near month on its own expiry day).
//
// The roll, as a trader would do it: a swing strategy holds the expiring contract on its expiry
// day until the roll time (the strategy's square-off time, 15:15 by default) and is in the next
// month from the first bar of that day stamped at or after it (the day's last bar when none is:
// coarse bars). An intraday strategy never holds a future past 15:30, so its expiry day trades the
// expiring contract all day and the next month starts with the next session.
//
// The result is runs of consecutive bars, one per contract, in order.
import { addDays, istDate, istEpochDay, istMinuteOfDay, minuteOfDay } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { buildTradingSymbol, derivativesKnownFrom, EXPIRY_CALENDAR_RANGE, expiriesBetween } from '@vyuha/market';
import type { OptionUnderlying } from '@vyuha/market';

/** One contract and the bars it is the traded contract for: [from, to). */
export interface FuturesContractRun {
  readonly tradingSymbol: string;
  readonly expiry: IsoDate;
  readonly from: number;
  readonly to: number;
}

export interface ContractScheduleRequest {
  readonly underlying: OptionUnderlying;
  /** Bar start times of the index series, epoch ms, increasing. */
  readonly time: Float64Array;
  readonly length: number;
  readonly type: 'intraday' | 'swing';
  /** IST `HH:mm` on an expiry day from which a swing position is in the next month. */
  readonly rollTime: string;
}

/** A series no futures contract can be named for; `field` says which input is at fault. */
export class FuturesPlanError extends Error {
  override readonly name = 'FuturesPlanError';
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
  }
}

/** Monthly expiries from `from` on, far enough to cover `to` (the calendar's end at most). */
function monthlyExpiries(underlying: OptionUnderlying, range: { from: IsoDate; to: IsoDate }): IsoDate[] {
  const searchTo = addDays(range.to, 70) < EXPIRY_CALENDAR_RANGE.to ? addDays(range.to, 70) : EXPIRY_CALENDAR_RANGE.to;
  return expiriesBetween(underlying, range.from, searchTo).filter((expiry) => expiry.kind === 'monthly').map((expiry) => expiry.date);
}

function checkRange(request: ContractScheduleRequest, range: { from: IsoDate; to: IsoDate }): void {
  const known = derivativesKnownFrom(request.underlying);
  if (range.from < known) {
    throw new FuturesPlanError('dateRange', `${request.underlying} futures are known from ${known} (the first contract in Vyuha's market data); the range starts ${range.from}`);
  }
  if (range.to > EXPIRY_CALENDAR_RANGE.to) {
    throw new FuturesPlanError('dateRange', `the expiry calendar ends ${EXPIRY_CALENDAR_RANGE.to}; the range ends ${range.to}`);
  }
}

/**
 * The near-month contract's expiry on `date`: the first monthly expiry on or after it (an
 * intraday strategy's contract all day, its expiry day included).
 * @example nearMonthly('NIFTY', '2024-01-25') // '2024-01-25'
 */
export function nearMonthly(underlying: OptionUnderlying, date: IsoDate): IsoDate {
  const near = monthlyExpiries(underlying, { from: date, to: date })[0];
  if (near === undefined) throw new FuturesPlanError('dateRange', `no monthly expiry of ${underlying} on or after ${date} in the expiry calendar`);
  return near;
}

/** The bar of an expiry day from which the next month is traded: the first at or after the roll minute, else the day's last. */
function rollBarOf(request: ContractScheduleRequest, day: { from: number; to: number }, rollMinute: number): number {
  for (let bar = day.from; bar < day.to; bar += 1) if (istMinuteOfDay(request.time[bar] as number) >= rollMinute) return bar;
  return day.to - 1;
}

/**
 * The contract runs of a series.
 * @example futuresContractRuns({ underlying: 'NIFTY', time, length, type: 'swing', rollTime: '15:15' })[0].tradingSymbol // 'NIFTY24DECFUT'
 */
export function futuresContractRuns(request: ContractScheduleRequest): FuturesContractRun[] {
  if (request.length === 0) return [];
  const range = { from: istDate(request.time[0] as number), to: istDate(request.time[request.length - 1] as number) };
  checkRange(request, range);
  const expiries = monthlyExpiries(request.underlying, range);
  const rollMinute = minuteOfDay(request.rollTime);
  const runs: Array<{ tradingSymbol: string; expiry: IsoDate; from: number; to: number }> = [];
  const extend = (expiry: IsoDate, bars: { from: number; to: number }): void => {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.expiry === expiry) last.to = bars.to;
    else if (bars.to > bars.from) runs.push({ tradingSymbol: buildTradingSymbol({ kind: 'future', underlying: request.underlying, expiry }), expiry, ...bars });
  };
  let next = 0;
  for (let from = 0; from < request.length;) {
    const day = istEpochDay(request.time[from] as number);
    let to = from + 1;
    while (to < request.length && istEpochDay(request.time[to] as number) === day) to += 1;
    const date = istDate(request.time[from] as number);
    while (next < expiries.length && (expiries[next] as IsoDate) < date) next += 1;
    const near = expiries[next];
    if (near === undefined) throw new FuturesPlanError('dateRange', `no monthly expiry of ${request.underlying} on or after ${date} in the expiry calendar`);
    const rollBar = request.type === 'swing' && near === date ? rollBarOf(request, { from, to }, rollMinute) : to;
    extend(near, { from, to: rollBar });
    if (rollBar < to) {
      const following = expiries[next + 1];
      if (following === undefined) throw new FuturesPlanError('dateRange', `no monthly expiry of ${request.underlying} after ${near} in the expiry calendar`);
      extend(following, { from: rollBar, to });
    }
    from = to;
  }
  return runs;
}

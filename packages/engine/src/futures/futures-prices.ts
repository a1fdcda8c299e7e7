// The bars of the futures an index backtest trades, on the index's bar times (rupees, like any
// BarSeries), one contract run after another (contract-schedule.ts):
// - a contract with imported candles is priced from them; a bar without a candle carries the last
//   close seen (open = high = low = close), as option legs do, so a thin contract never jumps on a
//   made-up price; bars before its first candle in the run fall back to the model;
// - otherwise the MODEL: the cost-of-carry fair value of the index bar, F = S x e^(r x t), with
//   r = FUTURES_MODEL_RATE (6.5% a year, continuous: the synthetic option chain's rate) and t the
//   years (of 365 days) from the bar's start to the contract's expiry close, 15:30 IST (so F = S
//   at the close of the expiry day), each price on the 0.05 tick. Real futures also trade at a
//   premium or discount to fair value; the results say "Model prices" where this was used.
import { paiseToRupees, rupeesToPaise } from '@vyuha/core';
import type { BarSeries } from '../algorithm/program';
import type { OptionCandleSource } from '../options-legs/leg-pricing';
import { expiryCloseEpochMs } from '../options/time-to-expiry';
import { SYNTHETIC_RATE } from '../synthetic/option-quote';
import type { FuturesContractRun } from './contract-schedule';

/** The model's annual continuous rate: the synthetic option chain's. */
export const FUTURES_MODEL_RATE = SYNTHETIC_RATE;

/** Index futures trade on a 0.05 tick. */
export const FUTURES_TICK_PAISE = 5;

const MILLISECONDS_PER_YEAR = 365 * 86_400_000;

/** A contract run with how its bars were priced. */
export interface PricedContractRun extends FuturesContractRun {
  /** Bars priced from imported candles (or carried from one). */
  readonly candleBars: number;
  /** Bars priced by the model. */
  readonly modelBars: number;
}

export interface FuturesPricesRequest {
  /** The index's bars (rupees). */
  readonly index: BarSeries;
  readonly runs: readonly FuturesContractRun[];
  /** Imported candles of the contracts (paise), by trading symbol: the port option legs read too. */
  readonly candles?: OptionCandleSource | undefined;
  /** Annual continuous rate of the model; FUTURES_MODEL_RATE when left out. */
  readonly rate?: number | undefined;
}

/** Rupees on the tick: the nearest 0.05 of `rupees x growth`. @example futuresModelPrice(24_000, 1.0021) // 24050.4 */
export function futuresModelPrice(rupees: number, growth: number): number {
  return paiseToRupees(Math.round(rupeesToPaise(rupees * growth) / FUTURES_TICK_PAISE) * FUTURES_TICK_PAISE);
}

/**
 * The model's carry factor e^(r x t) of a contract expiring `expiry` for a bar starting at `time`:
 * every price of that bar (its ticks too) is the index's times this, on the tick.
 * @example futuresModelGrowth('2024-01-25', istEpochMs('2024-01-25', '15:30')) // 1
 */
export function futuresModelGrowth(expiry: string, time: number, rate: number = FUTURES_MODEL_RATE): number {
  return Math.exp((rate * Math.max(0, expiryCloseEpochMs(expiry) - time)) / MILLISECONDS_PER_YEAR);
}

/**
 * The contracts' bars over the whole series, and how each run was priced.
 * @example futuresPrices({ index, runs }).prices.close[0] // the near month's model close at bar 0
 */
export function futuresPrices(request: FuturesPricesRequest): { prices: BarSeries; runs: PricedContractRun[] } {
  const { index, candles } = request;
  const rate = request.rate ?? FUTURES_MODEL_RATE;
  const length = index.length;
  const open = new Float64Array(length);
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const close = new Float64Array(length);
  const priced = request.runs.map((run): PricedContractRun => {
    const stored = candles?.hasContract(run.tradingSymbol) === true;
    let candleBars = 0;
    let lastClose = Number.NaN;
    for (let bar = run.from; bar < run.to; bar += 1) {
      const time = index.time[bar] as number;
      const candle = stored ? candles?.candleAt(run.tradingSymbol, bar, time) : undefined;
      if (candle !== undefined) {
        open[bar] = paiseToRupees(candle.open);
        high[bar] = paiseToRupees(candle.high);
        low[bar] = paiseToRupees(candle.low);
        lastClose = paiseToRupees(candle.close);
        close[bar] = lastClose;
        candleBars += 1;
      } else if (!Number.isNaN(lastClose)) {
        open[bar] = high[bar] = low[bar] = close[bar] = lastClose;
        candleBars += 1;
      } else {
        const growth = futuresModelGrowth(run.expiry, time, rate);
        open[bar] = futuresModelPrice(index.open[bar] as number, growth);
        high[bar] = futuresModelPrice(index.high[bar] as number, growth);
        low[bar] = futuresModelPrice(index.low[bar] as number, growth);
        close[bar] = futuresModelPrice(index.close[bar] as number, growth);
      }
    }
    return { ...run, candleBars, modelBars: run.to - run.from - candleBars };
  });
  return { prices: { length, time: index.time, open, high, low, close, volume: index.volume, oi: index.oi }, runs: priced };
}

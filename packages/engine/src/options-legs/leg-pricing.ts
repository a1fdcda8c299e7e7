// Premiums of option legs on every bar of the underlying, in paise.
// - Imported option candles win: a contract the candle source knows is priced only from its
//   candles. A bar with no candle for it carries the last close seen (open = high = low = close),
//   so a thin contract neither jumps nor triggers a stop on a made-up price.
// - Otherwise the synthetic chain: the mid of `syntheticOptionQuote` (Black-76 on the synthetic
//   surface from the VIX) at each tick of the underlying bar's tick path (execution/tick-path.ts:
//   open, low and high in the order the candle implies, close), in that order. A call's premium
//   rises on the index's up-ticks and a put's on its down-ticks, so a leg's stop triggers as the
//   index moves. This premium path is a MODEL: real premiums also move with IV inside the bar
//   and the true extremes of two legs need not coincide with the spot's.
// Each bar gives a contract its premium path (`path`, the four ticks its stops and targets are
// matched against: execution/matching-core.ts) and the premium OHLC of that path (`bar`): open
// and close are the first and last ticks, high and low the path's extremes. A contract with
// candles takes its own candle's tick path. All four ticks of a bar use the bar's start time for
// time to expiry (a minute of theta is far below a tick). Only open legs are priced and results
// go into reused arrays per contract.
import { black76Price, black76PriceAndGreeks } from '../options/black76';
import { black76ImpliedVolatility } from '../options/implied-volatility';
import type { BarSeries } from '../algorithm/program';
import { candleTickPath, TICKS_PER_CANDLE } from '../execution/tick-path';
import { SYNTHETIC_RATE } from '../synthetic/option-quote';
import { syntheticImpliedVolatility } from '../synthetic/volatility-surface';
import { expiryCloseEpochMs } from '../options/time-to-expiry';

/** One option candle, prices in paise. */
export interface OptionCandle {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

/** Imported option candles, looked up by trading symbol and the underlying's bar. */
export interface OptionCandleSource {
  /** True when this contract has imported candles; it is then never priced synthetically. */
  hasContract(tradingSymbol: string): boolean;
  /** The contract's candle for the underlying's bar `barIndex` starting at `time`, or undefined when it has none there. */
  candleAt(tradingSymbol: string, barIndex: number, time: number): OptionCandle | undefined;
}

/** What synthetic pricing reads: the underlying's bars (rupees) and INDIA VIX in points. */
export interface UnderlyingMarket {
  readonly bars: BarSeries;
  /** One VIX reading per bar (aligned with `bars`), or one constant. */
  readonly vix: number | ArrayLike<number>;
  /** Annual continuous rate; SYNTHETIC_RATE when left out. */
  readonly rate?: number;
}

/** The contract a leg holds. */
export interface LegContract {
  readonly tradingSymbol: string;
  readonly strike: number;
  readonly expiry: string;
  readonly option: 'CE' | 'PE';
}

/** A contract with its pricing source and reusable per-bar state; made by `LegPricer.price`. */
export interface PricedContract extends LegContract {
  readonly source: 'candles' | 'synthetic';
  readonly expiryCloseMs: number;
  /** The bar's premium OHLC in paise (of `path`), overwritten by each `priceBar`. */
  readonly bar: { open: number; high: number; low: number; close: number };
  /** The bar's premium tick path in paise (four ticks), overwritten by each `priceBar`. */
  readonly path: Float64Array;
  /** The last close seen, paise; NaN before the first priced bar. */
  lastClose: number;
}

/** Which price of a bar: the open (next-open fills) or the close (close fills, signals). */
export type BarPoint = 'open' | 'close';

const TICK_PAISE = 5;
const MILLISECONDS_PER_YEAR = 365 * 86_400_000;

/** Nearest 0.05 tick, never below one tick: the synthetic quote's mid, in paise. */
function midPaise(premiumRupees: number): number {
  return Math.max(TICK_PAISE, Math.round((premiumRupees * 100) / TICK_PAISE) * TICK_PAISE);
}

/** Prices leg contracts bar by bar from candles or the synthetic chain. */
export class LegPricer {
  readonly market: UnderlyingMarket;
  private readonly candles: OptionCandleSource | undefined;
  private readonly rate: number;

  constructor(market: UnderlyingMarket, candles?: OptionCandleSource) {
    this.market = market;
    this.candles = candles;
    this.rate = market.rate ?? SYNTHETIC_RATE;
  }

  /** A contract ready to be priced; its source is decided once, here. */
  price(contract: LegContract): PricedContract {
    const source = this.candles?.hasContract(contract.tradingSymbol) === true ? 'candles' : 'synthetic';
    return {
      ...contract, source, expiryCloseMs: expiryCloseEpochMs(contract.expiry),
      bar: { open: NaN, high: NaN, low: NaN, close: NaN }, path: new Float64Array(TICKS_PER_CANDLE), lastClose: NaN,
    };
  }

  /** The VIX in points on a bar. */
  vixAt(barIndex: number): number {
    const vix = this.market.vix;
    return typeof vix === 'number' ? vix : (vix[barIndex] as number);
  }

  /** Fills `contract.path` and `contract.bar` with bar `barIndex`'s premium path and OHLC; false when candles have none yet to carry. */
  priceBar(contract: PricedContract, barIndex: number): boolean {
    if (contract.source === 'candles') return this.candleBar(contract, barIndex);
    const bars = this.market.bars;
    const context = this.syntheticContext(contract, barIndex);
    const spots = this.spotPath;
    const spot = this.spotCandle;
    spot.open = bars.open[barIndex] as number;
    spot.high = bars.high[barIndex] as number;
    spot.low = bars.low[barIndex] as number;
    spot.close = bars.close[barIndex] as number;
    candleTickPath(spot, spots);
    const path = contract.path;
    for (let tick = 0; tick < TICKS_PER_CANDLE; tick += 1) path[tick] = this.syntheticMid(spots[tick] as number, context);
    summarisePath(contract);
    return true;
  }

  /** The premium (paise) at the open or close of a bar, without touching the contract's bar; undefined when no price exists. */
  premiumAt(contract: PricedContract, at: { readonly barIndex: number; readonly point: BarPoint }): number | undefined {
    if (contract.source === 'candles') {
      const candle = this.candles?.candleAt(contract.tradingSymbol, at.barIndex, this.market.bars.time[at.barIndex] as number);
      if (candle !== undefined) return at.point === 'open' ? candle.open : candle.close;
      return Number.isNaN(contract.lastClose) ? undefined : contract.lastClose;
    }
    const spot = (at.point === 'open' ? this.market.bars.open : this.market.bars.close)[at.barIndex] as number;
    return this.syntheticMid(spot, this.syntheticContext(contract, at.barIndex));
  }

  /**
   * The absolute Black-76 delta at a bar's open or close: from the synthetic surface, or for a
   * contract with candles from the vol implied by its candle price; undefined when none fits.
   */
  absoluteDeltaAt(contract: PricedContract, at: { readonly barIndex: number; readonly point: BarPoint }): number | undefined {
    const context = this.syntheticContext(contract, at.barIndex);
    const spot = (at.point === 'open' ? this.market.bars.open : this.market.bars.close)[at.barIndex] as number;
    const forward = spot * context.growth;
    const type = contract.option === 'CE' ? 'call' : 'put';
    let vol = syntheticImpliedVolatility({ vix: context.vix, years: context.years, logMoneyness: Math.log(contract.strike / forward) });
    if (contract.source === 'candles') {
      const premium = this.premiumAt(contract, at);
      if (premium === undefined) return undefined;
      const implied = black76ImpliedVolatility({ price: premium / 100, forward, strike: contract.strike, years: context.years, rate: this.rate, type });
      if (!implied.ok) return undefined;
      vol = implied.vol;
    }
    return Math.abs(black76PriceAndGreeks({ forward, strike: contract.strike, years: context.years, vol, rate: this.rate, type }).delta);
  }

  private candleBar(contract: PricedContract, barIndex: number): boolean {
    const candle = this.candles?.candleAt(contract.tradingSymbol, barIndex, this.market.bars.time[barIndex] as number);
    if (candle === undefined) {
      if (Number.isNaN(contract.lastClose)) return false;
      contract.path.fill(contract.lastClose);
    } else {
      candleTickPath(candle, contract.path);
    }
    summarisePath(contract);
    return true;
  }

  /** Per-bar constants of one contract: years to its expiry close, forward growth and the VIX. */
  private syntheticContext(contract: PricedContract, barIndex: number): SyntheticContext {
    const context = this.context;
    const years = Math.max(0, contract.expiryCloseMs - (this.market.bars.time[barIndex] as number)) / MILLISECONDS_PER_YEAR;
    context.years = years;
    context.growth = Math.exp(this.rate * years);
    context.vix = this.vixAt(barIndex);
    context.strike = contract.strike;
    context.type = contract.option === 'CE' ? 'call' : 'put';
    return context;
  }

  /** The synthetic mid in paise at one spot: the same numbers as `syntheticOptionQuote(...).mid`. */
  private syntheticMid(spot: number, context: SyntheticContext): number {
    const forward = spot * context.growth;
    const vol = syntheticImpliedVolatility({ vix: context.vix, years: context.years, logMoneyness: Math.log(context.strike / forward) });
    return midPaise(black76Price({ forward, strike: context.strike, years: context.years, vol, rate: this.rate, type: context.type }));
  }

  /** The underlying bar's tick path (rupees), reused: the pricer is single-threaded and never re-entered. */
  private readonly spotPath = new Float64Array(TICKS_PER_CANDLE);
  private readonly spotCandle = { open: 0, high: 0, low: 0, close: 0 };

  /** One reused scratch object: the pricer is single-threaded and never re-entered. */
  private readonly context: SyntheticContext = { years: 0, growth: 1, vix: 0, strike: 0, type: 'call' };
}

interface SyntheticContext {
  years: number;
  growth: number;
  vix: number;
  strike: number;
  type: 'call' | 'put';
}

/** The premium OHLC of the contract's path: first and last ticks, extremes; the close is the last seen. */
function summarisePath(contract: PricedContract): void {
  const { path, bar } = contract;
  const open = path[0] as number;
  const second = path[1] as number;
  const third = path[2] as number;
  const close = path[3] as number;
  bar.open = open;
  bar.close = close;
  bar.high = Math.max(open, second, third, close);
  bar.low = Math.min(open, second, third, close);
  contract.lastClose = close;
}

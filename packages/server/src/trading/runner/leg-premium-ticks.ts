// The premium of an option leg's contract at each tick of the underlying, for the paper venue: the
// same numbers the option-legs trader's pricer (engine options-legs/leg-pricing.ts) puts on the
// contract's four-tick path of the bar, so the venue matches the legs' orders on the prices the
// kernel matched them on.
// - A contract with stored candles: its candle's tick path (engine `candleTickPath`: open, low and
//   high in the order the candle implies, close); a bar without a candle repeats the last close.
//   The pricer over the stepped series gives it (it reads only the candle and the bar's time).
// - Otherwise the synthetic chain: the pricer's mid at the underlying's tick price, with the bar's
//   time to expiry and VIX. The kernel prices tick k of the bar at the underlying path's tick k,
//   which is the replay feed's tick k; here one tick is priced when it arrives (a one-bar scratch
//   market holding that tick as its open), so no price of the bar is read before its tick.
import { parseTradingSymbol } from '@vyuha/market';
import { LegPricer } from '@vyuha/engine';
import type { BarSeries, OptionCandleSource, PricedContract } from '@vyuha/engine';

/** What the trader priced the legs from: the series it steps over, INDIA VIX per bar, the stored option candles. */
export interface LegPricing {
  readonly series: BarSeries;
  /** INDIA VIX in points per bar of the series (stored-candles.ts `vixAtBars`), or one constant. */
  readonly vix: number | ArrayLike<number>;
  readonly candles?: OptionCandleSource | undefined;
  readonly rate?: number | undefined;
}

interface Contract {
  readonly own: PricedContract;
  /** The same contract on the scratch market (synthetic contracts only). */
  readonly scratch: PricedContract | undefined;
  /** The bar whose candle path `own.path` holds (candle contracts). */
  pricedBar: number;
}

export class LegPremiumTicks {
  private readonly pricer: LegPricer;
  private readonly scratchSeries = {
    length: 1, time: new Float64Array(1), open: new Float64Array(1), high: new Float64Array(1), low: new Float64Array(1),
    close: new Float64Array(1), volume: new Float64Array(1), oi: new Float64Array(1),
  };
  private readonly scratchVix = new Float64Array(1);
  private readonly scratchPricer: LegPricer;
  private readonly contracts = new Map<string, Contract>();

  constructor(private readonly pricing: LegPricing) {
    const rate = pricing.rate === undefined ? {} : { rate: pricing.rate };
    this.pricer = new LegPricer({ bars: pricing.series, vix: pricing.vix, ...rate }, pricing.candles);
    this.scratchPricer = new LegPricer({ bars: this.scratchSeries, vix: this.scratchVix, ...rate });
  }

  /**
   * The premium in paise of `symbol` at tick `tick` (0 to 3) of bar `index`, where the underlying
   * traded at `spotRupees`; undefined when a contract with candles has none yet to carry.
   * @example premiums.premiumAt('NIFTY2510924000CE', { index: 5, tick: 0, spotRupees: 23_950.5 }) // 11_240
   */
  premiumAt(symbol: string, at: { readonly index: number; readonly tick: number; readonly spotRupees: number }): number | undefined {
    const contract = this.contractOf(symbol);
    if (contract.scratch === undefined) {
      if (contract.pricedBar !== at.index) {
        if (!this.pricer.priceBar(contract.own, at.index)) return undefined;
        contract.pricedBar = at.index;
      }
      return contract.own.path[at.tick] as number;
    }
    const scratch = this.scratchSeries;
    scratch.time[0] = this.pricing.series.time[at.index] as number;
    scratch.open[0] = at.spotRupees;
    this.scratchVix[0] = this.pricer.vixAt(at.index);
    return this.scratchPricer.premiumAt(contract.scratch, { barIndex: 0, point: 'open' });
  }

  private contractOf(symbol: string): Contract {
    const known = this.contracts.get(symbol);
    if (known !== undefined) return known;
    const parsed = parseTradingSymbol(symbol);
    if (parsed.kind !== 'option') throw new Error(`${symbol} is not an option contract`);
    const leg = { tradingSymbol: symbol, strike: parsed.strike, expiry: parsed.expiry, option: parsed.optionType };
    const own = this.pricer.price(leg);
    const contract: Contract = { own, scratch: own.source === 'synthetic' ? this.scratchPricer.price(leg) : undefined, pricedBar: -1 };
    this.contracts.set(symbol, contract);
    return contract;
  }
}

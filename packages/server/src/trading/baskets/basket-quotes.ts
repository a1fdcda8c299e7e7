// Each leg of a basket resolved to a contract and priced now, as the paper runtime prices it:
// - an equity (or a contract with a last price at least as new as its index's): its last price,
//   the instrument_last_prices view that /chart and /payoff read (migration 0015);
// - an index future otherwise: the futures model, the index's last price times the carry factor
//   to its expiry (engine futuresModelGrowth, as the market run's futures chain prices it);
// - an index option otherwise: the synthetic chain's mid at the index's last price, INDIA VIX's
//   last level and the time to expiry (engine syntheticOptionQuote, as the option-legs paper run
//   prices a contract without candles: leg-premium-ticks.ts).
// An index itself is not traded. A contract is registered in `instruments` only when the basket
// is placed (registerLegInstruments), so a preview or a refused basket writes nothing.
import { istDate, paiseToRupees, rupeesToPaise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { futuresModelGrowth, futuresModelPrice, syntheticOptionQuote } from '@vyuha/engine';
import type { ChargesConfig } from '@vyuha/engine';
import { derivativesExchangeOf, isOptionUnderlying, lotSize, parseTradingSymbol } from '@vyuha/market';
import type { DerivativeContract, OptionUnderlying } from '@vyuha/market';
import type pg from 'pg';
import { contractInstrumentId } from '../../jobs/backtest-results';
import type { BasketDocument, BasketIssue, BasketLeg } from './basket-legs';

/** The index whose level prices option legs (synthetic chain). */
export const VIX_SYMBOL = 'INDIA VIX';

/** Where a leg's price came from, in words the screen shows. */
export type PriceSource = 'last price' | 'futures model' | 'synthetic option chain';

/** One leg resolved and priced. */
export interface QuotedLeg {
  readonly index: number;
  readonly leg: BasketLeg;
  readonly kind: 'equity' | 'future' | 'option';
  /** Known for equities and contracts already registered; set for every leg once placed. */
  readonly instrumentId: number | undefined;
  readonly underlying: { readonly instrumentId: number; readonly symbol: OptionUnderlying; readonly pricePaise: number } | undefined;
  readonly contract: DerivativeContract | undefined;
  readonly lotSize: number;
  /** Units sent: lots x lot size, or the equity's quantity. */
  readonly quantity: number;
  readonly pricePaise: number;
  readonly priceSource: PriceSource;
  /** The option's implied volatility at that price (synthetic chain), else undefined. */
  readonly impliedVolatility: number | undefined;
  readonly product: string;
  /** How a fill of this leg is charged (engine chargeModelOf). */
  readonly charges: ChargesConfig;
}

interface LastPrice { readonly pricePaise: number; readonly atMs: number }

async function lastPrice(db: pg.Pool, instrumentId: number): Promise<LastPrice | undefined> {
  const { rows } = await db.query<{ price: number | null; at: number | null }>(
    `SELECT price_paise::float8 AS price, (extract(epoch FROM updated_at) * 1000)::float8 AS at FROM instrument_last_prices WHERE instrument_id = $1`,
    [instrumentId]);
  const row = rows[0];
  return row?.price === null || row?.price === undefined || row.price <= 0 ? undefined : { pricePaise: row.price, atMs: row.at ?? 0 };
}

async function instrumentBySymbol(db: pg.Pool, symbol: string): Promise<{ instrument_id: number; kind: string; exchange: string } | undefined> {
  const { rows } = await db.query<{ instrument_id: number; kind: string; exchange: string }>(
    `SELECT instrument_id, kind, exchange FROM instruments WHERE trading_symbol = $1 ORDER BY (kind = 'index') LIMIT 1`, [symbol]);
  return rows[0];
}

function contractOf(symbol: string): DerivativeContract | undefined {
  try {
    return parseTradingSymbol(symbol);
  } catch {
    return undefined;
  }
}

interface QuoteContext {
  readonly db: pg.Pool;
  readonly nowMs: number;
  readonly today: IsoDate;
  readonly product: BasketDocument['product'];
  /** INDIA VIX's last level, read once when an option leg needs it. */
  vix?: LastPrice | null;
}

async function quoteEquity(context: QuoteContext, input: { leg: BasketLeg; index: number; row: { instrument_id: number; exchange: string } }): Promise<QuotedLeg | BasketIssue> {
  const { leg, index, row } = input;
  const field = `legs[${index}]`;
  if (leg.quantity === undefined) return { field: `${field}.quantity`, code: 'size', message: `${leg.symbol} is an equity: size it in units (quantity), not lots` };
  const price = await lastPrice(context.db, row.instrument_id);
  if (price === undefined) return { field: `${field}.symbol`, code: 'no-price', message: `${leg.symbol} has no last price to fill at` };
  const delivery = context.product === 'NRML';
  return {
    index, leg, kind: 'equity', instrumentId: row.instrument_id, underlying: undefined, contract: undefined, lotSize: 1, quantity: leg.quantity,
    pricePaise: price.pricePaise, priceSource: 'last price', impliedVolatility: undefined, product: delivery ? 'CNC' : 'MIS',
    charges: { kind: 'schedule', exchange: row.exchange === 'BSE' ? 'BSE' : 'NSE', instrument: delivery ? 'equity-delivery' : 'equity-intraday' },
  };
}

async function quoteContract(context: QuoteContext, input: { leg: BasketLeg; index: number; contract: DerivativeContract }): Promise<QuotedLeg | BasketIssue> {
  const { leg, index, contract } = input;
  const field = `legs[${index}]`;
  const symbol = contract.underlying;
  if (!isOptionUnderlying(symbol)) return { field: `${field}.symbol`, code: 'unknown-instrument', message: `${leg.symbol}: ${symbol} has no index derivatives here` };
  if (contract.expiry < context.today) return { field: `${field}.symbol`, code: 'expired', message: `${leg.symbol} expired on ${contract.expiry}` };
  if (leg.lots === undefined) return { field: `${field}.lots`, code: 'size', message: `${leg.symbol} is traded in lots: give lots, not quantity` };
  const index_ = await instrumentBySymbol(context.db, symbol);
  const indexPrice = index_ === undefined ? undefined : await lastPrice(context.db, index_.instrument_id);
  if (index_ === undefined || indexPrice === undefined) return { field: `${field}.symbol`, code: 'no-price', message: `${symbol} has no last price to price ${leg.symbol} from` };
  const lot = lotSize({ symbol, tradeDate: context.today, expiry: contract.expiry });
  const exchange = derivativesExchangeOf(symbol) === 'BFO' ? 'BSE' : 'NSE';
  const known = await instrumentBySymbol(context.db, leg.symbol);
  const own = known === undefined ? undefined : await lastPrice(context.db, known.instrument_id);
  const base = {
    index, leg, instrumentId: known?.instrument_id, underlying: { instrumentId: index_.instrument_id, symbol, pricePaise: indexPrice.pricePaise },
    contract, lotSize: lot, quantity: leg.lots * lot, product: context.product,
  };
  // The contract's own last price wins when it is as new as the index's (a stale candle would not).
  const fresh = own !== undefined && own.atMs >= indexPrice.atMs ? own : undefined;
  if (contract.kind === 'future') {
    const pricePaise = fresh?.pricePaise
      ?? rupeesToPaise(futuresModelPrice(paiseToRupees(indexPrice.pricePaise as never), futuresModelGrowth(contract.expiry, context.nowMs)));
    return {
      ...base, kind: 'future', pricePaise, priceSource: fresh === undefined ? 'futures model' : 'last price', impliedVolatility: undefined,
      charges: { kind: 'schedule', exchange, instrument: 'future' },
    };
  }
  if (fresh !== undefined) {
    return { ...base, kind: 'option', pricePaise: fresh.pricePaise, priceSource: 'last price', impliedVolatility: undefined, charges: { kind: 'schedule', exchange, instrument: 'option' } };
  }
  if (context.vix === undefined) {
    const vixRow = await instrumentBySymbol(context.db, VIX_SYMBOL);
    context.vix = (vixRow === undefined ? undefined : await lastPrice(context.db, vixRow.instrument_id)) ?? null;
  }
  if (context.vix === null) return { field: `${field}.symbol`, code: 'no-price', message: `${VIX_SYMBOL} has no last level to price ${leg.symbol} from` };
  const quote = syntheticOptionQuote({
    spot: paiseToRupees(indexPrice.pricePaise as never), vix: paiseToRupees(context.vix.pricePaise as never), strike: contract.strike, expiry: contract.expiry,
    at: context.nowMs, type: contract.optionType,
  });
  return {
    ...base, kind: 'option', pricePaise: quote.mid, priceSource: 'synthetic option chain', impliedVolatility: quote.iv,
    charges: { kind: 'schedule', exchange, instrument: 'option' },
  };
}

/**
 * Every leg resolved and priced at `nowMs`, or every issue (the field named).
 * @example await quoteBasket(pool, basket, Date.now()) // ok([{ index: 0, kind: 'future', quantity: 65, pricePaise: 2_612_340, ... }])
 */
export async function quoteBasket(db: pg.Pool, basket: BasketDocument, nowMs: number): Promise<{ legs: QuotedLeg[]; issues: BasketIssue[] }> {
  const context: QuoteContext = { db, nowMs, today: istDate(nowMs), product: basket.product };
  const legs: QuotedLeg[] = [];
  const issues: BasketIssue[] = [];
  for (const [index, leg] of basket.legs.entries()) {
    const row = await instrumentBySymbol(db, leg.symbol);
    const contract = contractOf(leg.symbol);
    let quoted: QuotedLeg | BasketIssue;
    if (row?.kind === 'index') {
      quoted = { field: `legs[${index}].symbol`, code: 'not-tradable', message: `${leg.symbol} is an index: trade its future or an option` };
    } else if (row?.kind === 'equity') {
      quoted = await quoteEquity(context, { leg, index, row });
    } else if (contract !== undefined) {
      quoted = await quoteContract(context, { leg, index, contract });
    } else {
      quoted = { field: `legs[${index}].symbol`, code: 'unknown-instrument', message: `no instrument ${leg.symbol}: an equity, or an index future or option such as NIFTY26JANFUT` };
    }
    if ('field' in quoted) issues.push(quoted);
    else legs.push(quoted);
  }
  return { legs, issues };
}

/** The legs with every contract registered in `instruments` (what an order row references). */
export async function registerLegInstruments(db: pg.Pool, legs: readonly QuotedLeg[], nowMs: number): Promise<QuotedLeg[]> {
  const registered: QuotedLeg[] = [];
  for (const leg of legs) {
    if (leg.instrumentId !== undefined || leg.underlying === undefined) {
      registered.push(leg);
      continue;
    }
    const instrumentId = await contractInstrumentId(db, {
      underlying: { instrumentId: leg.underlying.instrumentId, tradingSymbol: leg.underlying.symbol }, symbol: leg.leg.symbol, tradeDate: istDate(nowMs),
    });
    registered.push({ ...leg, instrumentId });
  }
  return registered;
}

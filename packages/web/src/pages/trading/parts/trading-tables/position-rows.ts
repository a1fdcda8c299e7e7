// The positions tables' model: GraphQL `positions` rows (with their run, strategy and instrument) as
// the lines a trader reads, valued at the last traded price, with the totals and, for options, the
// greeks. Pure, so the arithmetic is tested beside it (position-rows.test.ts).
//
// Which price is the LTP:
// - A replay run trades stored sessions of the past: only its own mark means anything (the
//   runtime's `mark_price_paise`, the last fill or the bar close it marked, migration 0022).
// - A market run (simulated market or broker) is valued at the instrument's last price (GraphQL
//   `ltps`, the /chart source) when that is newer than the position's last change, else its mark.
// Unrealised P&L at price p: long q x p - open cost; short open cost - |q| x p (0 when flat), the
// same formula as the column the runtime writes, so a row with no newer price shows that column.
//
// Greeks (docs/PRODUCT.md section 3, payoff): an option position's implied volatility is solved
// with Black-76 from its LTP on the forward F = spot x e^(rT) of its expiry, and its delta, gamma,
// theta and vega come from the engine's netGreeks at that volatility, times the signed quantity.
// Only market runs get them: a replay's underlying price at its own moment is not known here.
import { paiseToRupees } from '@vyuha/core';
import { black76ImpliedVolatility, netGreeks, SYNTHETIC_RATE, yearsToExpiry } from '@vyuha/engine';
import type { LastPrice } from '../use-last-prices';
import { epochMs } from '../time';

/** One `positions` row as the tables select it (bigint paise may arrive as text). */
export interface PositionRow {
  readonly run_id: string;
  readonly instrument_id: number;
  readonly net_quantity: number;
  readonly average_price_paise: number | string;
  readonly open_cost_paise: number | string;
  readonly realised_pnl_paise: number | string;
  readonly unrealised_pnl_paise: number | string;
  readonly mark_price_paise: number | string | null;
  readonly charges_paise: number | string;
  readonly updated_at: string;
  readonly instrument: {
    readonly trading_symbol: string;
    readonly exchange: string;
    readonly kind: string;
    readonly option_type: string | null;
    readonly strike_paise: number | string | null;
    readonly expiry: string | null;
    readonly underlying_instrument_id: number | null;
    readonly underlying?: { readonly trading_symbol: string } | null;
  } | null;
  readonly run: {
    readonly kind: string;
    readonly status: string;
    readonly params: { readonly replay?: unknown; readonly userBrokerId?: string; readonly basket?: unknown } | null;
    readonly strategy: { readonly strategy_id: string; readonly name: string } | null;
  } | null;
}

export interface OptionGreeksLine {
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
}

export interface PositionLine {
  /** `<run id>:<instrument id>`: unique per row. */
  readonly key: string;
  readonly runId: string;
  readonly instrumentId: number;
  readonly symbol: string;
  readonly exchange: string;
  readonly strategyId: string | undefined;
  readonly strategyName: string | undefined;
  /** PAPER, LIVE, BACKTEST (never shown by the screens' filters). */
  readonly mode: string;
  /** Its run can close it now: a run in progress (its runner), or a basket placement (the server). */
  readonly closable: boolean;
  /** A basket placement's position: squared off on its own (a LIVE one through the broker), no strategy stopped. */
  readonly basket: boolean;
  /** The broker account of a LIVE run (user_broker_id), when known. */
  readonly brokerAccountId: string | undefined;
  readonly quantity: number;
  readonly averagePaise: number;
  /** The LTP used (paise), undefined when the position was never priced. */
  readonly ltpPaise: number | undefined;
  readonly ltpSource: 'last price' | 'mark' | undefined;
  readonly unrealisedPaise: number;
  readonly realisedPaise: number;
  readonly chargesPaise: number;
  readonly updatedAtMs: number | undefined;
  /** The underlying of an option (for grouping its greeks), else undefined. */
  readonly underlyingId: number | undefined;
  readonly underlyingSymbol: string | undefined;
  readonly greeks: OptionGreeksLine | undefined;
}

export interface PositionTotals {
  readonly unrealisedPaise: number;
  readonly realisedPaise: number;
  readonly chargesPaise: number;
  /** Net greeks per underlying instrument id (options only). */
  readonly greeksByUnderlying: ReadonlyMap<number, Omit<OptionGreeksLine, 'iv'>>;
  /** The underlyings' symbols, where the rows carried them. */
  readonly underlyingNames: ReadonlyMap<number, string>;
}

function whole(value: number | string | null | undefined): number {
  const number = Number(value ?? 0);
  return Number.isFinite(number) ? Math.round(number) : 0;
}

/**
 * The unrealised P&L of `quantity` units (signed) holding `openCostPaise` at `pricePaise`.
 * @example unrealisedAt({ quantity: -50, openCostPaise: 1_100_000_00, pricePaise: 2_190_000 }) // 500000 (Rs 5,000 on a short)
 */
export function unrealisedAt(input: { readonly quantity: number; readonly openCostPaise: number; readonly pricePaise: number }): number {
  if (input.quantity === 0) return 0;
  return input.quantity * input.pricePaise - Math.sign(input.quantity) * input.openCostPaise;
}

/** Whether the row's run replays stored sessions (its params carry a replay range). */
function isReplay(row: PositionRow): boolean {
  const replay = row.run?.params?.replay;
  return replay !== undefined && replay !== null;
}

/** The LTP of a row: its mark, or the instrument's last price when that is newer (market runs only). */
function priceOf(row: PositionRow, last: LastPrice | undefined): { pricePaise: number; source: 'last price' | 'mark'; atMs: number | undefined } | undefined {
  const updated = epochMs(row.updated_at);
  const mark = row.mark_price_paise === null ? undefined : whole(row.mark_price_paise);
  if (!isReplay(row) && last !== undefined && (mark === undefined || updated === undefined || last.atMs >= updated)) {
    return { pricePaise: last.pricePaise, source: 'last price', atMs: last.atMs };
  }
  return mark === undefined || mark <= 0 ? undefined : { pricePaise: mark, source: 'mark', atMs: updated };
}

/**
 * An option position's implied volatility (Black-76) and greeks at `spot`, times its signed
 * quantity; undefined when the contract is not an option, has expired, or no volatility fits.
 */
export function optionGreeks(input: {
  readonly optionType: 'CE' | 'PE';
  readonly strikeRupees: number;
  readonly expiry: string;
  readonly quantity: number;
  readonly priceRupees: number;
  readonly spotRupees: number;
  readonly nowMs: number;
}): OptionGreeksLine | undefined {
  const years = yearsToExpiry(input.nowMs, input.expiry);
  if (!(years > 0) || !(input.spotRupees > 0) || !(input.priceRupees > 0)) return undefined;
  const solved = black76ImpliedVolatility({
    price: input.priceRupees, forward: input.spotRupees * Math.exp(SYNTHETIC_RATE * years), strike: input.strikeRupees, years,
    rate: SYNTHETIC_RATE, type: input.optionType === 'CE' ? 'call' : 'put',
  });
  if (!solved.ok) return undefined;
  const greeks = netGreeks(
    [{ kind: 'option', optionType: input.optionType, strike: input.strikeRupees, expiry: input.expiry, quantity: input.quantity, entryPrice: input.priceRupees, iv: solved.vol }],
    { nowEpochMs: input.nowMs, spot: input.spotRupees, rate: SYNTHETIC_RATE },
  );
  return { iv: solved.vol, delta: greeks.delta, gamma: greeks.gamma, theta: greeks.theta, vega: greeks.vega };
}

function greeksOf(row: PositionRow, price: { pricePaise: number; atMs: number | undefined } | undefined, prices: ReadonlyMap<number, LastPrice>): OptionGreeksLine | undefined {
  const instrument = row.instrument;
  if (instrument?.kind !== 'option' || row.net_quantity === 0 || isReplay(row) || price === undefined) return undefined;
  const { option_type: right, strike_paise: strike, expiry, underlying_instrument_id: underlying } = instrument;
  if ((right !== 'CE' && right !== 'PE') || strike === null || expiry === null || underlying === null) return undefined;
  const spot = prices.get(underlying);
  if (spot === undefined) return undefined;
  return optionGreeks({
    optionType: right, strikeRupees: paiseToRupees(whole(strike)), expiry, quantity: row.net_quantity,
    priceRupees: paiseToRupees(price.pricePaise), spotRupees: spot.rupees, nowMs: Math.max(spot.atMs, price.atMs ?? spot.atMs),
  });
}

/** The rows as lines, valued at `prices` (the `ltps` of the instruments and of options' underlyings). */
export function positionLines(rows: readonly PositionRow[], prices: ReadonlyMap<number, LastPrice>): PositionLine[] {
  return rows.map((row) => {
    const price = row.net_quantity === 0 ? undefined : priceOf(row, prices.get(row.instrument_id));
    const openCostPaise = whole(row.open_cost_paise);
    const unrealisedPaise = price === undefined ? whole(row.unrealised_pnl_paise) : unrealisedAt({ quantity: row.net_quantity, openCostPaise, pricePaise: price.pricePaise });
    return {
      key: `${row.run_id}:${row.instrument_id}`,
      runId: row.run_id,
      instrumentId: row.instrument_id,
      symbol: row.instrument?.trading_symbol ?? `#${row.instrument_id}`,
      exchange: row.instrument?.exchange ?? '',
      strategyId: row.run?.strategy?.strategy_id,
      strategyName: row.run?.strategy?.name,
      mode: row.run?.kind ?? '—',
      // A basket placement's positions are closed by the server at once, whatever its run's status.
      closable: row.run?.status === 'IN PROGRESS' || row.run?.params?.basket !== undefined,
      basket: row.run?.params?.basket !== undefined,
      brokerAccountId: row.run?.kind === 'LIVE' ? row.run.params?.userBrokerId : undefined,
      quantity: row.net_quantity,
      averagePaise: whole(row.average_price_paise),
      ltpPaise: price?.pricePaise,
      ltpSource: price?.source,
      unrealisedPaise,
      realisedPaise: whole(row.realised_pnl_paise),
      chargesPaise: whole(row.charges_paise),
      updatedAtMs: epochMs(row.updated_at),
      underlyingId: row.instrument?.kind === 'option' ? row.instrument.underlying_instrument_id ?? undefined : undefined,
      underlyingSymbol: row.instrument?.underlying?.trading_symbol,
      greeks: greeksOf(row, price, prices),
    };
  });
}

/** The instruments whose last prices the lines need: each instrument and each option's underlying. */
export function pricedInstrumentIds(rows: readonly PositionRow[]): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    ids.add(row.instrument_id);
    const underlying = row.instrument?.underlying_instrument_id;
    if (row.instrument?.kind === 'option' && underlying !== null && underlying !== undefined) ids.add(underlying);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * The totals of `lines`: P&L sums, and net greeks per underlying.
 * @example positionTotals(lines).unrealisedPaise // the sum of every line's unrealised P&L
 */
export function positionTotals(lines: readonly PositionLine[]): PositionTotals {
  const greeksByUnderlying = new Map<number, { delta: number; gamma: number; theta: number; vega: number }>();
  const underlyingNames = new Map<number, string>();
  let unrealisedPaise = 0;
  let realisedPaise = 0;
  let chargesPaise = 0;
  for (const line of lines) {
    unrealisedPaise += line.unrealisedPaise;
    realisedPaise += line.realisedPaise;
    chargesPaise += line.chargesPaise;
    if (line.greeks === undefined || line.underlyingId === undefined) continue;
    const net = greeksByUnderlying.get(line.underlyingId) ?? { delta: 0, gamma: 0, theta: 0, vega: 0 };
    net.delta += line.greeks.delta;
    net.gamma += line.greeks.gamma;
    net.theta += line.greeks.theta;
    net.vega += line.greeks.vega;
    greeksByUnderlying.set(line.underlyingId, net);
    if (line.underlyingSymbol !== undefined) underlyingNames.set(line.underlyingId, line.underlyingSymbol);
  }
  return { unrealisedPaise, realisedPaise, chargesPaise, greeksByUnderlying, underlyingNames };
}

/**
 * What squaring off `lines` does: each strategy is stopped with its square-off, closing every
 * position of its run; a basket's positions asked for are closed at market (a PAPER basket's at
 * once, a LIVE one's by an order to the broker), nothing stopped.
 */
export interface SquareOffPlan {
  readonly keys: ReadonlyArray<{ readonly run_id: string; readonly instrument_id: number }>;
  /** The strategies stopped, by name, each with the symbols its run holds among `lines`. */
  readonly strategies: ReadonlyArray<{ readonly name: string; readonly symbols: readonly string[] }>;
  /** The basket placements whose positions are closed, by name, with the symbols asked for and whether LIVE. */
  readonly baskets: ReadonlyArray<{ readonly name: string; readonly symbols: readonly string[]; readonly live: boolean }>;
}

/**
 * The request and the confirmation's facts for squaring off `lines`.
 * @example squareOffPlan(lines).strategies // [{ name: 'EMA crossover', symbols: ['NIFTY'] }]
 */
export function squareOffPlan(lines: readonly PositionLine[]): SquareOffPlan {
  const byStrategy = new Map<string, { name: string; symbols: string[] }>();
  const byBasket = new Map<string, { name: string; symbols: string[]; live: boolean }>();
  for (const line of lines) {
    const name = line.strategyName ?? `run ${line.runId.slice(0, 8)}`;
    if (line.basket) {
      const basket = byBasket.get(line.runId) ?? { name, symbols: [], live: line.mode === 'LIVE' };
      if (!basket.symbols.includes(line.symbol)) basket.symbols.push(line.symbol);
      byBasket.set(line.runId, basket);
      continue;
    }
    const id = line.strategyId ?? line.runId;
    const strategy = byStrategy.get(id) ?? { name, symbols: [] };
    if (!strategy.symbols.includes(line.symbol)) strategy.symbols.push(line.symbol);
    byStrategy.set(id, strategy);
  }
  return {
    keys: lines.map((line) => ({ run_id: line.runId, instrument_id: line.instrumentId })), strategies: [...byStrategy.values()], baskets: [...byBasket.values()],
  };
}

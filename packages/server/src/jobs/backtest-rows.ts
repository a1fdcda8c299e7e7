// A finished backtest as database rows: orders (each FILLED with its fill, or CANCELLED),
// fills with their charge components, net positions, daily P&L for the heatmaps, and the compact
// `result` document. Pure: the writer (backtest-results.ts) only inserts what this returns.
//
// Row rules that follow the schema's constraints (0004_trading.sql):
// - a FILLED order has filled_quantity = quantity; a CANCELLED one (never filled: a signal on the
//   data's last bar) has 0;
// - fills.price_paise must be > 0, so a settlement at 0 (an option expiring worthless) has no
//   fill row: its order is FILLED with no average price and says so in status_message;
// - client_order_id is `bt<run id hex>-<n>` (unique across runs, within ^[A-Za-z0-9_-]{1,64}$).
import { dateOfEpochDay, istEpochDay } from '@vyuha/core';
import type { BacktestResult, BarSeries, LedgerFill, LedgerOrder } from '@vyuha/engine';

export interface OrderRow {
  readonly clientOrderId: string;
  /** The ledger's instrument key (a trading symbol). */
  readonly instrument: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly filledQuantity: number;
  readonly status: 'FILLED' | 'CANCELLED';
  readonly averagePricePaise: number | null;
  readonly tag: string;
  readonly statusMessage: string | null;
  /** Epoch ms: when the simulated order was placed, and when it was last changed (its fill). */
  readonly placedAt: number;
  readonly updatedAt: number;
}

export interface FillRow {
  readonly clientOrderId: string;
  readonly tradeId: string;
  readonly quantity: number;
  readonly pricePaise: number;
  readonly charges: Readonly<Record<string, number>>;
  readonly time: number;
}

export interface PositionRow {
  readonly instrument: string;
  readonly netQuantity: number;
  readonly averagePricePaise: number;
  /** Average-cost realised P&L net of the instrument's charges, paise. */
  readonly realisedPnlPaise: number;
}

export interface DailyPnlRow {
  readonly date: string;
  readonly pnlPaise: number;
  readonly ordersCount: number;
}

export interface BacktestRows {
  readonly orders: readonly OrderRow[];
  readonly fills: readonly FillRow[];
  readonly positions: readonly PositionRow[];
  readonly days: readonly DailyPnlRow[];
}

/** Trades kept in `result.trades.list`; every fill is in the fills table anyway. */
export const RESULT_TRADES_LIMIT = 500;

function chargeColumns(fill: LedgerFill): Record<string, number> {
  const c = fill.charges;
  return {
    brokerage: c.brokerage, stt: c.stt, exchange: c.exchangeTransaction, investor_protection: c.investorProtection,
    sebi: c.sebiFee, stamp: c.stampDuty, gst: c.gst,
  };
}

function orderRow(order: LedgerOrder, fill: LedgerFill | undefined, prefix: string): OrderRow {
  const common = {
    clientOrderId: `${prefix}-${order.id}`, instrument: order.instrument, side: order.side === 'buy' ? 'BUY' as const : 'SELL' as const,
    quantity: order.quantity, tag: order.reason, placedAt: order.placedTime,
  };
  if (fill === undefined) {
    return { ...common, filledQuantity: 0, status: 'CANCELLED', averagePricePaise: null, statusMessage: 'not filled before the end of the data', updatedAt: order.placedTime };
  }
  const settledAtZero = fill.price <= 0;
  return {
    ...common, filledQuantity: order.quantity, status: 'FILLED', averagePricePaise: settledAtZero ? null : fill.price,
    statusMessage: settledAtZero ? 'settled at 0 (expired worthless): no fill row' : null, updatedAt: fill.time,
  };
}

/** Net position per instrument by the average-cost method, from the fills in order. */
export function positionsOf(fills: readonly LedgerFill[]): PositionRow[] {
  const book = new Map<string, { net: number; average: number; realised: number }>();
  for (const fill of fills) {
    const entry = book.get(fill.instrument) ?? { net: 0, average: 0, realised: 0 };
    const signed = fill.side === 'buy' ? fill.quantity : -fill.quantity;
    if (entry.net === 0 || Math.sign(entry.net) === Math.sign(signed)) {
      entry.average = (entry.average * Math.abs(entry.net) + fill.price * fill.quantity) / (Math.abs(entry.net) + fill.quantity);
      entry.net += signed;
    } else {
      const closing = Math.min(fill.quantity, Math.abs(entry.net));
      entry.realised += (fill.price - entry.average) * closing * Math.sign(entry.net);
      entry.net += signed;
      if (entry.net === 0) entry.average = 0;
      else if (Math.sign(entry.net) === Math.sign(signed)) entry.average = fill.price;
    }
    entry.realised -= fill.chargesTotal;
    book.set(fill.instrument, entry);
  }
  return [...book].map(([instrument, entry]) => ({
    instrument, netQuantity: entry.net, averagePricePaise: entry.net === 0 ? 0 : Math.round(entry.average), realisedPnlPaise: Math.round(entry.realised),
  }));
}

/**
 * The rows of a finished run. `runId` names the client order ids.
 * @example backtestRows(result, runId).orders[0].clientOrderId // 'bt0f1e...-1'
 */
export function backtestRows(result: BacktestResult, runId: string): BacktestRows {
  const prefix = `bt${runId.replaceAll('-', '')}`;
  const fillOf = new Map(result.fills.map((fill) => [fill.orderId, fill]));
  const orders = result.orders.map((order) => orderRow(order, fillOf.get(order.id), prefix));
  const fills = result.fills.filter((fill) => fill.price > 0).map((fill) => ({
    clientOrderId: `${prefix}-${fill.orderId}`, tradeId: `sim-${fill.orderId}`, quantity: fill.quantity, pricePaise: fill.price,
    charges: chargeColumns(fill), time: fill.time,
  }));
  const days = result.days.map((day) => ({ date: day.date, pnlPaise: day.net, ordersCount: day.orders }));
  return { orders, fills, positions: positionsOf(result.fills), days };
}

/**
 * Equity and drawdown, one point per IST trading day: the equity at the day's last bar and the
 * deepest drawdown reached during the day (so the curve's minimum is the run's max drawdown).
 */
export function dailyCurves(result: BacktestResult, series: BarSeries): { dates: string[]; equityPaise: number[]; drawdownPaise: number[] } {
  const dates: string[] = [];
  const equityPaise: number[] = [];
  const drawdownPaise: number[] = [];
  let currentDay = Number.NaN;
  for (let bar = 0; bar < series.length; bar += 1) {
    const day = istEpochDay(series.time[bar] as number);
    const equity = Math.round(result.equity[bar] as number);
    const drawdown = Math.round(result.drawdown[bar] as number);
    if (day !== currentDay) {
      currentDay = day;
      dates.push(dateOfEpochDay(day));
      equityPaise.push(equity);
      drawdownPaise.push(drawdown);
    } else {
      equityPaise[equityPaise.length - 1] = equity;
      if (drawdown < (drawdownPaise[drawdownPaise.length - 1] as number)) drawdownPaise[drawdownPaise.length - 1] = drawdown;
    }
  }
  return { dates, equityPaise, drawdownPaise };
}

/**
 * The `result` document of a run (format `vyuha.backtest-result` 1): the summary, daily equity
 * and drawdown curves, and the first RESULT_TRADES_LIMIT round trips with counts by exit reason.
 */
export function resultDocument(result: BacktestResult, series: BarSeries): Record<string, unknown> {
  const byExitReason: Record<string, number> = {};
  for (const trade of result.trades) byExitReason[trade.exitReason] = (byExitReason[trade.exitReason] ?? 0) + 1;
  return {
    format: 'vyuha.backtest-result',
    version: 1,
    summary: result.summary,
    candlesProcessed: result.candlesProcessed,
    curves: dailyCurves(result, series),
    trades: {
      count: result.trades.length,
      byExitReason,
      truncated: result.trades.length > RESULT_TRADES_LIMIT,
      list: result.trades.slice(0, RESULT_TRADES_LIMIT).map((trade) => ({
        instrument: trade.instrument, direction: trade.direction, quantity: trade.quantity,
        entryTime: trade.entryTime, entryPricePaise: trade.entryPrice, exitTime: trade.exitTime, exitPricePaise: trade.exitPrice,
        grossPaise: trade.gross, chargesPaise: trade.charges, netPaise: trade.net, exitReason: trade.exitReason,
      })),
    },
  };
}

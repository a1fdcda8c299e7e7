// Statistics of round-trip trades and of days. A trade (or day) with exactly 0 net P&L is neither
// a win nor a loss and ends both streaks: a streak is consecutive wins (or losses) only.
import type { IsoDate, Paise } from '@vyuha/core';
import type { DailyResult, RoundTripTrade } from './metrics-input';
import { ratioOf } from './risk-ratios';
import type { Ratio } from './risk-ratios';

/** The counts and sums of trades' net P&L that win rate and profit factor come from. */
export interface TradeOutcomes {
  readonly trades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  /** Sum of the winning nets (>= 0). */
  readonly grossProfit: Paise;
  /** Sum of the losing nets (<= 0). */
  readonly grossLoss: Paise;
  /** Winning trades over all trades, in [0, 1]; null without trades. */
  readonly winRate: number | null;
  /** grossProfit / |grossLoss|; 'infinite' with profit and no loss; null with neither. */
  readonly profitFactor: Ratio;
}

export interface TradeStatistics extends TradeOutcomes {
  readonly breakevenTrades: number;
  /** Average net P&L per trade, rounded to the paisa; null without trades. */
  readonly expectancy: Paise | null;
  readonly averageWin: Paise | null;
  readonly averageLoss: Paise | null;
  readonly largestWin: Paise | null;
  readonly largestLoss: Paise | null;
  readonly longestWinStreak: number;
  readonly longestLossStreak: number;
}

export interface DayStatistics {
  readonly winningDays: number;
  readonly losingDays: number;
  readonly longestWinningDayStreak: number;
  readonly longestLosingDayStreak: number;
}

/** Rounds half away from zero to a whole paisa: averages of paise are not whole in general. */
function averagePaise(sum: number, count: number): Paise | null {
  if (count === 0) return null;
  const value = sum / count;
  return (Math.sign(value) * Math.round(Math.abs(value))) as Paise;
}

/** Longest runs of values > 0 and < 0 in order; zeros break both. */
export function longestStreaks(values: Iterable<number>): { readonly wins: number; readonly losses: number } {
  let wins = 0;
  let losses = 0;
  let currentWins = 0;
  let currentLosses = 0;
  for (const value of values) {
    currentWins = value > 0 ? currentWins + 1 : 0;
    currentLosses = value < 0 ? currentLosses + 1 : 0;
    wins = Math.max(wins, currentWins);
    losses = Math.max(losses, currentLosses);
  }
  return { wins, losses };
}

/** Trades in the order they closed (exit time, then entry time, then input order). */
function byExit(trades: readonly RoundTripTrade[]): RoundTripTrade[] {
  return trades.map((trade, index) => ({ trade, index }))
    .sort((a, b) => a.trade.exitTime - b.trade.exitTime || a.trade.entryTime - b.trade.entryTime || a.index - b.index)
    .map((entry) => entry.trade);
}

/**
 * Win rate and profit factor of trades given by their net P&L (paise), the first `count` of
 * `nets`, summed in the order given: `tradeStatistics` and a sweep's run (which reads the nets from
 * the ledger's columns into a buffer it reuses) share it.
 * @example tradeOutcomes([300, -100, 0]) // { trades: 3, winningTrades: 1, losingTrades: 1, winRate: 1/3, profitFactor: 3, ... }
 */
export function tradeOutcomes(nets: ArrayLike<number>, count = nets.length): TradeOutcomes {
  let grossProfit = 0;
  let grossLoss = 0;
  let winningTrades = 0;
  let losingTrades = 0;
  for (let k = 0; k < count; k += 1) {
    const net = nets[k] as number;
    if (net > 0) {
      winningTrades += 1;
      grossProfit += net;
    } else if (net < 0) {
      losingTrades += 1;
      grossLoss += net;
    }
  }
  return {
    trades: count,
    winningTrades,
    losingTrades,
    grossProfit: grossProfit as Paise,
    grossLoss: grossLoss as Paise,
    winRate: count === 0 ? null : winningTrades / count,
    profitFactor: ratioOf(grossProfit, -grossLoss),
  };
}

/**
 * Win rate, profit factor, expectancy, averages, extremes and streaks of round-trip trades.
 * @example tradeStatistics([{ netPnl: 300 }, { netPnl: -100 }, ...]) // winRate, profitFactor 3, ...
 */
export function tradeStatistics(trades: readonly RoundTripTrade[]): TradeStatistics {
  const outcomes = tradeOutcomes(trades.map((trade) => trade.netPnl));
  const { grossProfit, grossLoss, winningTrades, losingTrades } = outcomes;
  let largestWin: number | null = null;
  let largestLoss: number | null = null;
  for (const { netPnl } of trades) {
    if (netPnl > 0) largestWin = Math.max(largestWin ?? netPnl, netPnl);
    else if (netPnl < 0) largestLoss = Math.min(largestLoss ?? netPnl, netPnl);
  }
  const streaks = longestStreaks(byExit(trades).map((trade) => trade.netPnl));
  // The fields in the order the metrics have always been listed (JSON keeps it).
  return {
    trades: outcomes.trades,
    winningTrades,
    losingTrades,
    breakevenTrades: trades.length - winningTrades - losingTrades,
    winRate: outcomes.winRate,
    grossProfit,
    grossLoss,
    profitFactor: outcomes.profitFactor,
    expectancy: averagePaise(grossProfit + grossLoss, trades.length),
    averageWin: averagePaise(grossProfit, winningTrades),
    averageLoss: averagePaise(grossLoss, losingTrades),
    largestWin: largestWin as Paise | null,
    largestLoss: largestLoss as Paise | null,
    longestWinStreak: streaks.wins,
    longestLossStreak: streaks.losses,
  };
}

/** Winning and losing days and their longest streaks over all trading days (a day without P&L breaks a streak). */
export function dayStatistics(days: readonly DailyResult[], tradingDays: readonly IsoDate[]): DayStatistics {
  const pnlByDate = new Map<string, number>(days.map((day) => [day.date, day.netPnl]));
  const pnl = tradingDays.map((date) => pnlByDate.get(date) ?? 0);
  const streaks = longestStreaks(pnl);
  return {
    winningDays: pnl.filter((value) => value > 0).length,
    losingDays: pnl.filter((value) => value < 0).length,
    longestWinningDayStreak: streaks.wins,
    longestLosingDayStreak: streaks.losses,
  };
}

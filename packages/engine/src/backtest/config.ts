// The backtest config: what a run needs besides bars and a program, with defaults and a validator
// that names every impossible field at once (no run starts on a bad config). Money is paise.
import { minuteOfDay, paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import type { ChargesConfig } from '../kernel/charges-model';
import type { ExitDistance } from '../kernel/protective-levels';
import type { Sizing } from '../kernel/sizing';
import type { SlippageModel } from '../kernel/slippage';
import type { FillModel, TradeDirection } from '../kernel/underlying-trader';
import { checkExitDistance, checkSizing, checkSlippage, checkCharges, oneOf, positivePaise, type IssueSink } from './config-checks';

export type StrategyType = 'intraday' | 'swing';

export interface BacktestConfig {
  /** Starting capital, paise. */
  readonly capital: Paise;
  /** `intraday`: entry cut-off and square-off apply, nothing is carried overnight; `swing` carries positions. */
  readonly type: StrategyType;
  readonly fill: FillModel;
  readonly direction: TradeDirection;
  /** An opposite signal also opens the other side after closing (otherwise it only closes). */
  readonly reverse: boolean;
  readonly sizing: Sizing;
  readonly slippage: SlippageModel;
  /** Price tick in paise (5 = Rs 0.05). */
  readonly tickSize: number;
  readonly charges: ChargesConfig;
  /** IST `HH:mm`: intraday, no entry on a bar stamped at or after it. */
  readonly entryCutoff: string;
  /** IST `HH:mm`: intraday, everything closes at the open of the first bar stamped at or after it. */
  readonly squareOff: string;
  readonly stopLoss?: ExitDistance;
  readonly target?: ExitDistance;
  readonly trailingStop?: ExitDistance;
  /** Paise (positive): close everything and stop entering for the day when the day's P&L reaches -dailyMaxLoss. */
  readonly dailyMaxLoss?: Paise;
  readonly dailyMaxProfit?: Paise;
  /** Key of the traded instrument in orders and fills. */
  readonly instrument: string;
}

/** What a caller may pass: every field optional (undefined means "the default"). */
export type BacktestConfigInput = { readonly [K in keyof BacktestConfig]?: BacktestConfig[K] | undefined };

export const DEFAULT_BACKTEST_CONFIG: BacktestConfig = {
  capital: paise(10_000_000),
  type: 'intraday',
  fill: 'next-open',
  direction: 'long-only',
  reverse: false,
  sizing: { kind: 'all-in' },
  slippage: { kind: 'none' },
  tickSize: 5,
  charges: { kind: 'none' },
  entryCutoff: '15:00',
  squareOff: '15:15',
  instrument: 'UNDERLYING',
};

export interface ConfigIssue {
  /** Path of the bad field, e.g. `sizing.lotSize`. */
  readonly field: string;
  readonly message: string;
}

/** A config that cannot run; `issues` names each bad field. */
export class BacktestConfigError extends Error {
  override readonly name = 'BacktestConfigError';
  constructor(readonly issues: readonly ConfigIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
  }
}

const KNOWN_FIELDS = new Set<string>(['capital', 'type', 'fill', 'direction', 'reverse', 'sizing', 'slippage', 'tickSize', 'charges',
  'entryCutoff', 'squareOff', 'stopLoss', 'target', 'trailingStop', 'dailyMaxLoss', 'dailyMaxProfit', 'instrument']);

/** 09:15 and 15:30: the session a cut-off or square-off must fall in. */
const SESSION_OPEN = 9 * 60 + 15;
const SESSION_CLOSE = 15 * 60 + 30;

function sessionMinute(sink: IssueSink, field: string, value: unknown): number | undefined {
  let minute: number | undefined;
  try {
    minute = typeof value === 'string' ? minuteOfDay(value) : undefined;
  } catch {
    minute = undefined;
  }
  if (minute === undefined || minute < SESSION_OPEN || minute > SESSION_CLOSE) {
    sink.push({ field, message: `must be a time HH:mm from 09:15 to 15:30, got ${JSON.stringify(value)}` });
    return undefined;
  }
  return minute;
}

function checkSession(sink: IssueSink, config: BacktestConfig): void {
  const cutoff = sessionMinute(sink, 'entryCutoff', config.entryCutoff);
  const squareOff = sessionMinute(sink, 'squareOff', config.squareOff);
  if (cutoff !== undefined && squareOff !== undefined && squareOff < cutoff) {
    sink.push({ field: 'squareOff', message: `${config.squareOff} is before the entry cut-off ${config.entryCutoff}: a position could open after it was squared off` });
  }
}

function checkOthers(sink: IssueSink, config: BacktestConfig): void {
  positivePaise(sink, 'capital', config.capital);
  oneOf(sink, 'type', { value: config.type, allowed: ['intraday', 'swing'] });
  oneOf(sink, 'fill', { value: config.fill, allowed: ['next-open', 'close'] });
  oneOf(sink, 'direction', { value: config.direction, allowed: ['long-only', 'short-only', 'both'] });
  if (typeof config.reverse !== 'boolean') sink.push({ field: 'reverse', message: `must be true or false, got ${JSON.stringify(config.reverse)}` });
  positivePaise(sink, 'tickSize', config.tickSize);
  if (typeof config.instrument !== 'string' || config.instrument.trim() === '') sink.push({ field: 'instrument', message: 'must name the traded instrument' });
  if (config.dailyMaxLoss !== undefined) positivePaise(sink, 'dailyMaxLoss', config.dailyMaxLoss);
  if (config.dailyMaxProfit !== undefined) positivePaise(sink, 'dailyMaxProfit', config.dailyMaxProfit);
}

/**
 * Fills defaults and checks a config; every impossible field is reported, not just the first.
 * @example validateBacktestConfig({ sizing: { kind: 'lots', lots: 2 } as never }) // throws "sizing.lotSize: is required for lots sizing ..."
 */
export function validateBacktestConfig(input: BacktestConfigInput = {}): BacktestConfig {
  const sink: ConfigIssue[] = [];
  if (typeof input !== 'object' || input === null) throw new BacktestConfigError([{ field: 'config', message: 'must be an object' }]);
  for (const key of Object.keys(input)) if (!KNOWN_FIELDS.has(key)) sink.push({ field: key, message: 'is not a backtest setting' });
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const config = { ...DEFAULT_BACKTEST_CONFIG, ...defined } as BacktestConfig;
  checkOthers(sink, config);
  checkSizing(sink, config.sizing);
  checkSlippage(sink, config.slippage);
  checkCharges(sink, config.charges);
  checkSession(sink, config);
  for (const field of ['stopLoss', 'target', 'trailingStop'] as const) {
    const distance = config[field];
    if (distance !== undefined) checkExitDistance(sink, field, distance);
  }
  if (sink.length > 0) throw new BacktestConfigError(sink);
  return config;
}

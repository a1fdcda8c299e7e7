// The configuration of a strategy that can be deployed (paper or live): what it runs, on what,
// at which interval, how it sizes and how it exits, and whether each signal waits for the
// user (MANUAL mode). It reuses, never copies, the rules that already exist:
// - sizing, investment (the backtest's capital), stop-loss, target, trailing stop and the daily
//   limits are checked by `validateBacktestConfig` (backtest/config.ts), on the config this
//   strategy would hand the kernel (`backtestConfigOf`);
// - option legs are parsed by `parseOptionsLegsConfig` (options-legs/config.ts).
// Invariants:
// - every issue names its field path (`legs.onBuy[0].lots`, `sizing.lotSize`, `investment`);
// - with option legs, the legs size themselves (`sizing` stays all-in), exits are per leg, and the
//   day's limits are the legs' own (a strategy-level limit must agree with them);
// - `parseDeployableConfig(serializeDeployableConfig(config))` gives back `config`.
import { err, ok, paise } from '@vyuha/core';
import type { Paise, Result } from '@vyuha/core';
import { INTERVAL_MINUTES } from '@vyuha/market';
import type { IntervalMinutes } from '@vyuha/market';
import { BacktestConfigError, validateBacktestConfig } from '../backtest/config';
import type { BacktestConfigInput, ConfigIssue, StrategyType } from '../backtest/config';
import type { ExitDistance } from '../kernel/protective-levels';
import type { Sizing } from '../kernel/sizing';
import { dailyLimitsOf, OptionsLegsConfigError, parseOptionsLegsConfig } from '../options-legs/config';
import type { OptionsLegsConfig } from '../options-legs/config';

/** A saved algorithm version: the signals the strategy acts on (with legs, which legs open). */
export interface AlgorithmVersionRef {
  readonly id: string;
  readonly version: number;
}

export interface DeployableConfig {
  readonly algorithm: AlgorithmVersionRef;
  /** Option legs on an index opened by the algorithm's signals; null when the instrument itself is traded. */
  readonly legs: OptionsLegsConfig | null;
  /** The instrument, as the backtest request named it (the server resolves it to its id). */
  readonly instrument: string;
  readonly interval: IntervalMinutes;
  readonly type: StrategyType;
  /** The capital the strategy trades with, paise (the backtest's investment). */
  readonly investment: Paise;
  /** How many units an entry trades; `all-in` sizes by the investment. */
  readonly sizing: Sizing;
  readonly stopLoss?: ExitDistance;
  readonly target?: ExitDistance;
  readonly trailingStop?: ExitDistance;
  /** Paise, positive. */
  readonly dailyMaxLoss?: Paise;
  readonly dailyMaxProfit?: Paise;
  /** MANUAL mode: each signal waits for the user to confirm or reject it. */
  readonly manual: boolean;
}

const FIELDS = ['algorithm', 'legs', 'instrument', 'interval', 'type', 'investment', 'sizing', 'stopLoss', 'target', 'trailingStop',
  'dailyMaxLoss', 'dailyMaxProfit', 'manual'] as const;
const EXIT_FIELDS = ['stopLoss', 'target', 'trailingStop'] as const;
const LIMIT_FIELDS = ['dailyMaxLoss', 'dailyMaxProfit'] as const;

type Fields = Readonly<Record<string, unknown>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shown(value: unknown): string {
  return JSON.stringify(value) ?? 'nothing';
}

/**
 * The kernel config this strategy runs with: the fields a backtest of it would use.
 * @example backtestConfigOf(config).capital // config.investment
 */
export function backtestConfigOf(config: DeployableConfig): BacktestConfigInput {
  return {
    capital: config.investment, type: config.type, sizing: config.sizing, instrument: config.instrument,
    stopLoss: config.stopLoss, target: config.target, trailingStop: config.trailingStop, dailyMaxLoss: config.dailyMaxLoss, dailyMaxProfit: config.dailyMaxProfit,
  };
}

function parseAlgorithm(value: unknown, issues: ConfigIssue[]): AlgorithmVersionRef | undefined {
  if (!isRecord(value)) {
    issues.push({ field: 'algorithm', message: `must be { id, version }, got ${shown(value)}` });
    return undefined;
  }
  const { id, version } = value;
  const idOk = typeof id === 'string' && id.trim() !== '';
  if (!idOk) issues.push({ field: 'algorithm.id', message: `must be a non-empty algorithm id, got ${shown(id)}` });
  const versionOk = typeof version === 'number' && Number.isSafeInteger(version) && version >= 1;
  if (!versionOk) issues.push({ field: 'algorithm.version', message: `must be a saved version number (1 or more), got ${shown(version)}` });
  return idOk && versionOk ? { id: id.trim(), version } : undefined;
}

function parseLegs(value: unknown, issues: ConfigIssue[]): OptionsLegsConfig | null {
  if (value === undefined || value === null) return null;
  try {
    return parseOptionsLegsConfig(value);
  } catch (error) {
    if (!(error instanceof OptionsLegsConfigError)) throw error;
    issues.push({ field: `legs.${error.field}`, message: error.message.slice(error.field.length + 2) });
    return null;
  }
}

function parseInterval(value: unknown, issues: ConfigIssue[]): IntervalMinutes {
  if (INTERVAL_MINUTES.includes(value as IntervalMinutes)) return value as IntervalMinutes;
  issues.push({ field: 'interval', message: `must be one of ${INTERVAL_MINUTES.join(', ')} minutes, got ${shown(value)}` });
  return INTERVAL_MINUTES[0];
}

/** With legs: no strategy-level exits, all-in sizing, and daily limits that are the legs' own. */
function legsRules(fields: Fields, legs: OptionsLegsConfig, issues: ConfigIssue[]): { dailyMaxLoss?: number; dailyMaxProfit?: number } {
  for (const field of EXIT_FIELDS) {
    if (fields[field] !== undefined) issues.push({ field, message: 'is set per leg with option legs (legs.onBuy[i] / legs.onSell[i])' });
  }
  if (fields.sizing !== undefined && !(isRecord(fields.sizing) && fields.sizing.kind === 'all-in')) {
    issues.push({ field: 'sizing', message: 'must be all-in with option legs: each leg trades its own lots' });
  }
  const fromLegs = dailyLimitsOf(legs);
  for (const field of LIMIT_FIELDS) {
    const given = fields[field];
    if (given !== undefined && given !== fromLegs[field]) {
      issues.push({ field, message: `must equal the legs' own limit (${shown(fromLegs[field])} paise), got ${shown(given)}` });
    }
  }
  return fromLegs;
}

/** Runs the backtest validator on the kernel config; its issues keep their paths (`capital` is our `investment`). */
function kernelIssues(config: DeployableConfig): ConfigIssue[] {
  try {
    validateBacktestConfig(backtestConfigOf(config));
    return [];
  } catch (error) {
    if (!(error instanceof BacktestConfigError)) throw error;
    return error.issues.map((issue) => (issue.field === 'capital' ? { field: 'investment', message: issue.message } : issue));
  }
}

/**
 * Validates a deployable strategy's config (a form, a stored row, "deploy this"); every problem comes back at once with its field.
 * @example parseDeployableConfig({ algorithm: { id: 'a1', version: 3 }, instrument: 'RELIANCE', interval: 15, type: 'swing', investment: 10000000 }) // ok, sizing all-in, manual false
 */
export function parseDeployableConfig(input: unknown): Result<DeployableConfig, ConfigIssue[]> {
  if (!isRecord(input)) return err([{ field: 'config', message: 'must be an object' }]);
  const issues: ConfigIssue[] = [];
  for (const key of Object.keys(input)) {
    if (!(FIELDS as readonly string[]).includes(key)) issues.push({ field: key, message: `is not a strategy setting (known: ${FIELDS.join(', ')})` });
  }
  const algorithm = parseAlgorithm(input.algorithm, issues);
  const legs = parseLegs(input.legs, issues);
  const interval = parseInterval(input.interval, issues);
  if (input.manual !== undefined && typeof input.manual !== 'boolean') issues.push({ field: 'manual', message: `must be true or false, got ${shown(input.manual)}` });
  const investment = input.investment;
  if (typeof investment !== 'number' || !Number.isSafeInteger(investment) || investment <= 0) {
    issues.push({ field: 'investment', message: `must be a whole number of paise above 0, got ${shown(investment)}` });
  }
  const instrument = input.instrument;
  if (typeof instrument !== 'string' || instrument.trim() === '') issues.push({ field: 'instrument', message: `must name the traded instrument, got ${shown(instrument)}` });
  const config: Mutable<DeployableConfig> = {
    algorithm: algorithm ?? { id: '', version: 1 }, legs, interval,
    instrument: typeof instrument === 'string' ? instrument.trim() : '',
    type: input.type as StrategyType,
    investment: (Number.isSafeInteger(investment) ? paise(investment as number) : investment) as Paise,
    sizing: (input.sizing ?? { kind: 'all-in' }) as Sizing,
    manual: input.manual === true,
  };
  for (const field of EXIT_FIELDS) if (input[field] !== undefined) config[field] = input[field] as ExitDistance;
  const limits = legs === null ? { dailyMaxLoss: input.dailyMaxLoss, dailyMaxProfit: input.dailyMaxProfit } : legsRules(input, legs, issues);
  for (const field of LIMIT_FIELDS) if (limits[field] !== undefined) config[field] = limits[field] as Paise;
  // Fields already reported above are not reported twice by the backtest validator.
  const reported = new Set(issues.map((issue) => issue.field));
  issues.push(...kernelIssues(config).filter((issue) => !reported.has(issue.field) && !(issue.field === 'instrument' && reported.has('instrument'))));
  if (issues.length > 0) return err(issues);
  return ok(config);
}

/**
 * The JSON a deployable config is stored as; `parseDeployableConfig` reads it back to the same config.
 * @example serializeDeployableConfig(config).investment // config.investment (paise)
 */
export function serializeDeployableConfig(config: DeployableConfig): Record<string, unknown> {
  return JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
}


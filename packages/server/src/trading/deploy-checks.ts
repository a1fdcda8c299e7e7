// The checks of deploying a strategy that read no table: the mode, the replay range and speed,
// and the deployable configuration assembled from a strategy row (its jsonb `config` plus the
// columns that name what it runs). Each problem is an issue naming its field, as the request or
// the row spells it (`mode`, `replay.speed`, `config.investment`).
import { isDeepStrictEqual } from 'node:util';
import { isIsoDate } from '@vyuha/core';
import { parseDeployableConfig, serializeDeployableConfig } from '@vyuha/engine';
import type { OptionsLegsConfig } from '@vyuha/engine';
import { legsPaperRefusal } from './runner/legs-paper-levels';

/** Why a deploy, stop or confirmation was refused; `field` names the request's or the configuration's field. */
export interface DeployIssue {
  readonly field?: string;
  readonly code: DeployIssueCode;
  readonly message: string;
}

export type DeployIssueCode =
  | 'not-found' | 'not-managed' | 'not-deployable' | 'invalid-status' | 'invalid-mode' | 'live-unavailable'
  | 'permission-missing' | 'invalid-config' | 'invalid-replay' | 'not-runnable' | 'no-licence-slot' | 'run-in-progress' | 'resume-differs'
  | 'signal-processed' | 'signal-expired' | 'run-ended' | 'name-taken' | 'broker-account' | 'broker-session' | 'algo-id-missing';

/** Replay speeds: 1x, 10x, 60x, 600x, and 0 = as fast as the runtime goes. */
export const REPLAY_SPEEDS: readonly number[] = [0, 1, 10, 60, 600];

export const DEPLOY_MODES: readonly string[] = ['PAPER', 'LIVE'];

/** Why a tier that trades only on paper cannot deploy LIVE. */
export const LIVE_UNAVAILABLE_MESSAGE = 'demo and backtest accounts trade on PAPER only';

/** The tiers that trade on PAPER only (LIVE_UNAVAILABLE_MESSAGE): they neither deploy nor follow LIVE. */
export const PAPER_ONLY_TIERS: readonly string[] = ['demo', 'backtest'];

/** Past stored candles played through the runtime: an IST date range and a speed. */
export interface ReplayRequest {
  readonly from: string;
  readonly to: string;
  readonly speed: number;
}

/** The strategy row fields a deployment reads. */
export interface DeployableRow {
  readonly algorithmId: string | null;
  readonly algorithmVersion: number | null;
  readonly instrumentName: string | null;
  readonly intervalMinutes: number;
  readonly strategyType: string;
  readonly config: Readonly<Record<string, unknown>>;
}

/**
 * The mode must be PAPER or LIVE (LIVE's own checks: deployments.ts `liveIssues`).
 * @example modeIssues('SIM') // [{ field: 'mode', code: 'invalid-mode', message: 'mode must be PAPER or LIVE, got "SIM"' }]
 */
export function modeIssues(mode: unknown): DeployIssue[] {
  if (mode === 'LIVE' || mode === 'PAPER') return [];
  return [{ field: 'mode', code: 'invalid-mode', message: `mode must be PAPER or LIVE, got ${JSON.stringify(mode)}` }];
}

/**
 * What the paper runtime cannot run yet, each at its field: option legs of a shape paper cannot
 * run, on a replay or on the market (runner/legs-paper-levels.ts: at-cost re-entries, two legs
 * alike with different exits), and MANUAL option legs on a replay (a replay of an instrument waits
 * for each signal's decision: runner/pending-signals.ts).
 * Refused before anything is written rather than started and failed. Without a replay a strategy
 * trades on the simulated market: option legs too, intraday or swing (runner/legs-market-run.ts).
 * @example runtimeIssues({ type: 'intraday', legs: { underlying: 'NIFTY', onBuy: [] }, manual: true }, { from: '2024-06-03', to: '2024-06-07', speed: 0 }) // [{ field: 'config.manual', code: 'not-runnable', ... }]
 */
export function runtimeIssues(config: { readonly type?: unknown; readonly legs?: unknown; readonly manual?: unknown }, replay: ReplayRequest | null | undefined): DeployIssue[] {
  const issues: DeployIssue[] = [];
  if (config.legs !== undefined && config.legs !== null) {
    const refusal = legsPaperRefusal(config.legs as OptionsLegsConfig, config.type === 'swing' ? 'swing' : 'intraday');
    if (refusal !== undefined) issues.push({ field: 'config.legs', code: 'not-runnable', message: `config.legs: ${refusal}` });
  }
  if (config.manual === true && replay !== undefined && replay !== null && config.legs !== undefined && config.legs !== null) {
    issues.push({ field: 'config.manual', code: 'not-runnable',
      message: 'config.manual: MANUAL option legs are not replayed yet; deploy them on the market (no replay) or without MANUAL' });
  }
  return issues;
}

/**
 * A replay's dates are ISO dates, from <= to, neither after `today` (IST); its speed one of REPLAY_SPEEDS.
 * @example replayIssues({ from: '2024-05-06', to: '2024-05-31', speed: 7 }, '2025-01-15') // [{ field: 'replay.speed', ... }]
 */
export function replayIssues(replay: ReplayRequest | null | undefined, today: string): DeployIssue[] {
  if (replay === undefined || replay === null) return [];
  const issues: DeployIssue[] = [];
  const issue = (field: string, message: string): void => {
    issues.push({ field: `replay.${field}`, code: 'invalid-replay', message });
  };
  const dates: Array<['from' | 'to', unknown]> = [['from', replay.from], ['to', replay.to]];
  for (const [field, value] of dates) {
    if (typeof value !== 'string' || !isIsoDate(value)) issue(field, `replay.${field} must be a date (YYYY-MM-DD), got ${JSON.stringify(value)}`);
    else if (value > today) issue(field, `replay.${field} ${value} is in the future (today is ${today} IST): a replay plays stored candles`);
  }
  if (typeof replay.from === 'string' && typeof replay.to === 'string' && isIsoDate(replay.from) && isIsoDate(replay.to) && replay.from > replay.to) {
    issue('to', `replay.to ${replay.to} is before replay.from ${replay.from}`);
  }
  if (!REPLAY_SPEEDS.includes(replay.speed)) {
    issue('speed', `replay.speed must be one of ${REPLAY_SPEEDS.join(', ')} (0 = as fast as possible), got ${JSON.stringify(replay.speed)}`);
  }
  return issues;
}

/** Columns of the row that say what the strategy runs, keyed by the configuration field they fill. */
function columnSettings(row: DeployableRow): Record<string, unknown> {
  const settings: Record<string, unknown> = { interval: row.intervalMinutes, type: row.strategyType };
  if (row.algorithmId !== null && row.algorithmVersion !== null) settings.algorithm = { id: row.algorithmId, version: row.algorithmVersion };
  if (row.instrumentName !== null) settings.instrument = row.instrumentName;
  return settings;
}

const COLUMN_OF: Readonly<Record<string, string>> = {
  algorithm: 'algorithm_id and algorithm_version', instrument: 'instrument_id', interval: 'interval_minutes', type: 'strategy_type',
};

/** The configuration a run starts with (serialized) and whether it is MANUAL, or every issue. */
export type DeployableConfigOutcome =
  | { readonly ok: true; readonly config: Record<string, unknown>; readonly manual: boolean }
  | { readonly ok: false; readonly issues: DeployIssue[] };

/**
 * The stored configuration with the row's columns, parsed by the engine; the serialized config the
 * run is started with, or every issue at `config.<field>`. A `backtest` key is where run_backtest
 * recorded the strategy's origin, not a setting, and is left out.
 * @example deployableConfigOf({ ...row, config: { investment: 0 } }) // { ok: false, issues: [{ field: 'config.investment', code: 'invalid-config', ... }] }
 */
export function deployableConfigOf(row: DeployableRow): DeployableConfigOutcome {
  const settings: Record<string, unknown> = { ...row.config };
  delete settings.backtest;
  const columns = columnSettings(row);
  const issues: DeployIssue[] = [];
  for (const [field, value] of Object.entries(columns)) {
    if (settings[field] !== undefined && !isDeepStrictEqual(settings[field], value)) {
      issues.push({ field: `config.${field}`, code: 'invalid-config',
        message: `config.${field} ${JSON.stringify(settings[field])} disagrees with the strategy's ${COLUMN_OF[field] ?? field} `
          + `(${JSON.stringify(value)})` });
    }
  }
  const parsed = parseDeployableConfig({ ...settings, ...columns });
  if (!parsed.ok) {
    const field = (issue: { field: string }): string => `config.${issue.field}`;
    issues.push(...parsed.error.map((issue) => ({ field: field(issue), code: 'invalid-config' as const, message: `${field(issue)} ${issue.message}` })));
  }
  if (!parsed.ok || issues.length > 0) return { ok: false, issues };
  return { ok: true, config: serializeDeployableConfig(parsed.value), manual: parsed.value.manual };
}

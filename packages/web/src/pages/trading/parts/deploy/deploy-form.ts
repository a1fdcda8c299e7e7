// The deploy dialog's form as plain data: the draft the fields edit, the draft made from a
// strategy's saved config, and the draft turned into what the server takes (strategies.config and
// deploy_strategy's mode, replay and broker account). Validation is the engine's own
// parseDeployableConfig, the rule the server applies at deploy, so the form and the server never
// disagree; each issue lands on the field that causes it. Money is typed in rupees and stored in
// paise; points are rupees per unit, as the engine reads them.
import { parseDeployableConfig } from '@vyuha/engine';
import { rupeesFieldToPaise } from '../../../../format/money-input';

export type DeployMode = 'PAPER' | 'LIVE';
export type SizingKind = 'all-in' | 'quantity' | 'lots';
export type ExitKind = 'none' | 'percent' | 'points';
export type ExitField = 'stopLoss' | 'target' | 'trailingStop';
/** What a NumberInput gives: a number, or text while typing (empty = nothing). */
export type NumberDraft = number | string;

export interface ExitDraft {
  readonly kind: ExitKind;
  readonly value: NumberDraft;
}

export interface DeployDraft {
  readonly mode: DeployMode;
  readonly userBrokerId: string | null;
  readonly investmentRupees: NumberDraft;
  readonly sizing: SizingKind;
  readonly quantity: NumberDraft;
  readonly lots: NumberDraft;
  readonly stopLoss: ExitDraft;
  readonly target: ExitDraft;
  readonly trailingStop: ExitDraft;
  /** Rupees; empty = no limit. */
  readonly dailyMaxLossRupees: NumberDraft;
  readonly dailyMaxProfitRupees: NumberDraft;
  readonly manual: boolean;
  /** PAPER only: play stored sessions instead of the simulated market as it happens. */
  readonly replay: boolean;
  readonly replayFrom: string;
  readonly replayTo: string;
  readonly speed: number;
}

/** The strategy columns a deployable config is checked with (the server adds them the same way). */
export interface DeployTarget {
  readonly algorithm_id: string | null;
  readonly algorithm_version: number | null;
  readonly interval_minutes: number;
  readonly strategy_type: string;
  readonly config: Readonly<Record<string, unknown>> | null;
  readonly instrument: { readonly name: string; readonly lot_size: number } | null;
}

/** Form field -> message. Keys: investment, sizing, stopLoss, target, trailingStop, dailyMaxLoss, dailyMaxProfit, manual, mode, user_broker_id, replay.from, replay.to, replay.speed, replay, legs, general. */
export type FieldErrors = Readonly<Record<string, string>>;

const EXIT_FIELDS: readonly ExitField[] = ['stopLoss', 'target', 'trailingStop'];

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}

function exitDraftOf(value: unknown): ExitDraft {
  const distance = record(value);
  if (distance.kind === 'percent' && typeof distance.percent === 'number') return { kind: 'percent', value: distance.percent };
  if (distance.kind === 'points' && typeof distance.points === 'number') return { kind: 'points', value: distance.points };
  return { kind: 'none', value: '' };
}

function rupeesOf(paiseValue: unknown): NumberDraft {
  return typeof paiseValue === 'number' ? paiseValue / 100 : '';
}

/**
 * The draft of a strategy's saved config (empty fields where it has none).
 * @example draftOf({ config: { investment: 100000000, stopLoss: { kind: 'percent', percent: 1 } } }, replayDefault).stopLoss // { kind: 'percent', value: 1 }
 */
export function draftOf(config: Readonly<Record<string, unknown>> | null, replay: { from: string; to: string }): DeployDraft {
  const saved = record(config);
  const sizing = record(saved.sizing);
  return {
    mode: 'PAPER', userBrokerId: null,
    investmentRupees: rupeesOf(saved.investment),
    sizing: sizing.kind === 'quantity' || sizing.kind === 'lots' ? sizing.kind : 'all-in',
    quantity: typeof sizing.quantity === 'number' ? sizing.quantity : '',
    lots: typeof sizing.lots === 'number' ? sizing.lots : '',
    stopLoss: exitDraftOf(saved.stopLoss), target: exitDraftOf(saved.target), trailingStop: exitDraftOf(saved.trailingStop),
    dailyMaxLossRupees: rupeesOf(saved.dailyMaxLoss), dailyMaxProfitRupees: rupeesOf(saved.dailyMaxProfit),
    manual: saved.manual === true,
    replay: true, replayFrom: replay.from, replayTo: replay.to, speed: 600,
  };
}

/** A typed number, or NaN for text that is not one (the engine then names the field); undefined when empty. */
function numberOf(value: NumberDraft): number | undefined {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return undefined;
  return Number(value.replaceAll(',', ''));
}

/** The form field an issue path belongs to: `config.sizing.lots` -> sizing, `replay.speed` stays whole. */
export function fieldKeyOf(path: string | undefined): string {
  if (path === undefined) return 'general';
  const bare = path.startsWith('config.') ? path.slice('config.'.length) : path;
  if (bare.startsWith('replay.')) return bare;
  const first = bare.split(/[.[]/)[0] ?? 'general';
  return first === 'capital' ? 'investment' : first === 'strategy_id' ? 'general' : first;
}

/** Issues gathered per field: the first message of each field wins, the others join "general". */
export function fieldErrorsOf(issues: ReadonlyArray<{ readonly field?: string; readonly message: string }>): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = fieldKeyOf(issue.field);
    errors[key] = errors[key] === undefined ? issue.message : `${errors[key]}; ${issue.message}`;
  }
  return errors;
}

/**
 * The broker login path a session refusal names, if any.
 * @example loginPathIn('... (log in at /api/broker_login/zerodha/AB1234)') // '/api/broker_login/zerodha/AB1234'
 */
export function loginPathIn(message: string | undefined): string | undefined {
  return /\(log in at (\/api\/broker_login\/[^\s)]+)\)/.exec(message ?? '')?.[1];
}

export interface DeployRequest {
  /** The settings strategies.config stores (the strategy's columns hold the algorithm, instrument, interval and type). */
  readonly config: Record<string, unknown>;
  readonly mode: DeployMode;
  readonly replay: { readonly from: string; readonly to: string; readonly speed: number } | null;
  readonly userBrokerId: string | null;
}

function moneyPaise(value: NumberDraft, field: string, errors: Record<string, string>): number | undefined {
  const parsed = rupeesFieldToPaise(value);
  if (!parsed.ok) {
    errors[field] = `must be an amount in rupees: ${parsed.error}`;
    return undefined;
  }
  return parsed.value;
}

/** The settings of the draft as strategies.config stores them; money problems the engine cannot see go to `errors`. */
function settingsOf(draft: DeployDraft, lotSize: number, errors: Record<string, string>): Record<string, unknown> {
  const settings: Record<string, unknown> = { investment: moneyPaise(draft.investmentRupees, 'investment', errors) ?? 0, manual: draft.manual };
  if (draft.sizing === 'quantity') settings.sizing = { kind: 'quantity', quantity: numberOf(draft.quantity) ?? 0 };
  else if (draft.sizing === 'lots') settings.sizing = { kind: 'lots', lots: numberOf(draft.lots) ?? 0, lotSize };
  else settings.sizing = { kind: 'all-in' };
  for (const field of EXIT_FIELDS) {
    const exit = draft[field];
    if (exit.kind === 'none') continue;
    const value = numberOf(exit.value) ?? 0;
    settings[field] = exit.kind === 'percent' ? { kind: 'percent', percent: value } : { kind: 'points', points: value };
  }
  for (const [field, value] of [['dailyMaxLoss', draft.dailyMaxLossRupees], ['dailyMaxProfit', draft.dailyMaxProfitRupees]] as const) {
    if (numberOf(value) === undefined) continue;
    const amount = moneyPaise(value, field, errors);
    if (amount !== undefined) settings[field] = amount;
  }
  return settings;
}

/** Form-owned keys and the columns' keys (the server fills those from the row). */
const REPLACED_KEYS = new Set(['investment', 'sizing', 'stopLoss', 'target', 'trailingStop', 'dailyMaxLoss', 'dailyMaxProfit', 'manual',
  'algorithm', 'instrument', 'interval', 'type']);

/** What the saved config holds that the form does not edit (option legs, the backtest it came from): kept as saved. */
function keptSettings(config: Readonly<Record<string, unknown>> | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record(config)).filter(([key]) => !REPLACED_KEYS.has(key)));
}

/** Replay checks the form can make (the server makes them all again, with today's date). */
function replayErrors(draft: DeployDraft, history: { from: string; to: string }, errors: Record<string, string>): void {
  if (draft.replayFrom === '' || draft.replayFrom < history.from || draft.replayFrom > history.to) {
    errors['replay.from'] = `choose a date from ${history.from} to ${history.to} (the stored history)`;
  }
  if (draft.replayTo === '' || draft.replayTo < history.from || draft.replayTo > history.to) {
    errors['replay.to'] = `choose a date from ${history.from} to ${history.to} (the stored history)`;
  } else if (draft.replayFrom !== '' && draft.replayTo < draft.replayFrom) {
    errors['replay.to'] = 'must not be before the first date';
  }
}

/**
 * The draft checked as the server will check it: the request, or the errors per field.
 * @example deployRequestOf({ ...draft, stopLoss: { kind: 'percent', value: -1 } }, target, history) // { ok: false, errors: { stopLoss: 'stopLoss.percent must be ...' } }
 */
export function deployRequestOf(draft: DeployDraft, target: DeployTarget, history: { from: string; to: string }):
  { readonly ok: true; readonly request: DeployRequest } | { readonly ok: false; readonly errors: FieldErrors } {
  const errors: Record<string, string> = {};
  const settings = { ...keptSettings(target.config), ...settingsOf(draft, target.instrument?.lot_size ?? 1, errors) };
  const { backtest: _origin, ...checked } = settings;
  const parsed = parseDeployableConfig({
    ...checked,
    interval: target.interval_minutes, type: target.strategy_type, instrument: target.instrument?.name ?? '',
    ...(target.algorithm_id !== null && target.algorithm_version !== null ? { algorithm: { id: target.algorithm_id, version: target.algorithm_version } } : {}),
  });
  if (!parsed.ok) {
    for (const [key, message] of Object.entries(fieldErrorsOf(parsed.error.map((issue) => ({ field: issue.field, message: `${issue.field} ${issue.message}` }))))) {
      errors[key] ??= message;
    }
  }
  const replaying = draft.mode === 'PAPER' && draft.replay;
  if (replaying) replayErrors(draft, history, errors);
  const legs = settings.legs;
  if (replaying && draft.manual && legs !== undefined && legs !== null) {
    errors.manual = 'MANUAL option legs are not replayed yet: turn manual confirmation off, or trade without a replay';
  }
  if (draft.mode === 'LIVE' && draft.userBrokerId === null) errors.user_broker_id = 'choose the broker account the strategy trades through';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      config: settings, mode: draft.mode,
      replay: replaying ? { from: draft.replayFrom, to: draft.replayTo, speed: draft.speed } : null,
      // LIVE: the account it trades through; PAPER: the account whose account-level stop and target count it (optional).
      userBrokerId: draft.userBrokerId,
    },
  };
}

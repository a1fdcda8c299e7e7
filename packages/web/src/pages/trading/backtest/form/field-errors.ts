// Where each error of the backtest form shows (docs/PRODUCT.md sections 5 and 8): issues carry the engine's
// field paths (`dateRanges[1]`, `frequenciesAndInvestments[0].investment`); a refusal of
// run_backtest carries a path into the input (`$.selectionSet.run_backtest.args.input.dateRanges[1]`)
// and a message listing every bad field as `path: message; path: message`. Both end up as one
// map from field path to message; what names no field of the form is a toast.
import type { RequestIssue } from '@vyuha/engine';

/** The GraphQL path of the run_backtest input (server: backtest-input.ts). */
export const INPUT_PATH = '$.selectionSet.run_backtest.args.input';

/** The server's error code when the BACKTEST credits cannot cover a request (run-backtest.ts). */
export const INSUFFICIENT_CREDITS = 'insufficient-credits';

/** The top-level fields of run_backtest_input: an issue under one of them has a place in the form. */
export const FORM_FIELDS = [
  'name', 'strategyType', 'algorithms', 'instrument', 'dateRanges', 'window', 'frequenciesAndInvestments', 'tradeInstrumentsConfig',
] as const;

const FIELD_ROOT = `(?:${FORM_FIELDS.join('|')})`;
const FIELD_PATH = `${FIELD_ROOT}(?:\\[\\d+\\]|\\.[A-Za-z]+)*`;
/** `; ` that starts the next `path: message` (a message may itself hold "; did you mean ..."). */
const ISSUE_SEPARATOR = new RegExp(`; (?=${FIELD_PATH}: )`);
const ISSUE = new RegExp(`^(${FIELD_PATH}): ([\\s\\S]*)$`);

/** Field path -> message, the first message of each path. */
export type FieldErrors = ReadonlyMap<string, string>;

/** The engine names the whole options-legs object `config`; in the form that is the field itself. */
function normalisePath(path: string): string {
  return path.replace(/^tradeInstrumentsConfig\.config$/, 'tradeInstrumentsConfig');
}

/** Issues as a map, the first message per path winning. */
export function fieldErrorsOf(issues: readonly RequestIssue[]): FieldErrors {
  const errors = new Map<string, string>();
  for (const issue of issues) {
    const path = normalisePath(issue.path);
    if (!errors.has(path)) errors.set(path, issue.message);
  }
  return errors;
}

/** The message at exactly `path`. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  return errors.get(path);
}

/** The first message at `path` or inside it (`onBuy[0].strike` covers `onBuy[0].strike.steps`, not `onBuy[0].strikes`). */
export function errorWithin(errors: FieldErrors, path: string): string | undefined {
  const exact = errors.get(path);
  if (exact !== undefined) return exact;
  for (const [key, message] of errors) {
    if (key.startsWith(`${path}.`) || key.startsWith(`${path}[`)) return message;
  }
  return undefined;
}

/** The paths the form shows a message at: every field, list, row and option-leg control. */
const SHOWN_PATHS: readonly RegExp[] = [
  /^(name|strategyType|instrument|window)$/,
  /^algorithms(\[\d+\])?$/,
  /^dateRanges(\[\d+\](\.(from|to))?)?$/,
  /^frequenciesAndInvestments(\[\d+\](\.(interval|investment))?)?$/,
  /^tradeInstrumentsConfig(\.(underlying|weeklyFallback|maxEntriesPerDay|dailyMaxLossRupees|dailyMaxProfitRupees|onBuy|onSell))?$/,
  /^tradeInstrumentsConfig\.(onBuy|onSell)\[\d+\](\..+)?$/,
];

/** True for a path the form shows at a field; '' (the whole request) and anything unknown are not. */
export function isShownPath(path: string): boolean {
  return SHOWN_PATHS.some((pattern) => pattern.test(path));
}

/** An issue as one line, for where no field can hold it. */
export function issueText(issue: RequestIssue): string {
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/** Messages of issues that have no field in the form (e.g. "expands to 1200 runs"). */
export function unplacedMessages(issues: readonly RequestIssue[]): string[] {
  return issues.filter((issue) => !isShownPath(issue.path)).map(issueText);
}

/** A GraphQL error as urql gives it. */
export interface GraphqlErrorLike {
  readonly message: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** What the form does with a refusal of run_backtest. */
export type Refusal =
  /** `unplaced`: issues of the same refusal that name no field of the form (toasted). */
  | { readonly kind: 'fields'; readonly issues: readonly RequestIssue[]; readonly unplaced: readonly string[] }
  | { readonly kind: 'credits'; readonly message: string }
  | { readonly kind: 'toast'; readonly message: string };

/**
 * Splits `dateRanges[1]: overlaps ...; frequenciesAndInvestments[0].investment: must be ...` into
 * issues; text that does not start with a field path is none.
 * @example issuesInMessage('window: must be one of ...') // [{ path: 'window', message: 'must be one of ...' }]
 */
export function issuesInMessage(message: string): RequestIssue[] {
  const issues: RequestIssue[] = [];
  for (const part of message.split(ISSUE_SEPARATOR)) {
    const match = ISSUE.exec(part);
    if (match === null) return [];
    issues.push({ path: normalisePath(match[1] as string), message: match[2] as string });
  }
  return issues;
}

/**
 * Where a refusal of run_backtest belongs: the fields its path and message name, the credits line
 * at the submit button (insufficient credits), else a toast with the server's message.
 * @example refusalOf({ message: 'window: must be ...', extensions: { code: 'validation-failed', path: `${INPUT_PATH}.window` } })
 * // { kind: 'fields', issues: [{ path: 'window', message: 'must be ...' }] }
 */
export function refusalOf(error: GraphqlErrorLike): Refusal {
  const code = error.extensions?.code;
  const path = error.extensions?.path;
  if (code === INSUFFICIENT_CREDITS) return { kind: 'credits', message: error.message };
  if (typeof path !== 'string' || !(path === INPUT_PATH || path.startsWith(`${INPUT_PATH}.`) || path.startsWith(`${INPUT_PATH}[`))) {
    return { kind: 'toast', message: error.message };
  }
  const listed = issuesInMessage(error.message);
  const field = normalisePath(path.slice(INPUT_PATH.length).replace(/^\./, ''));
  const issues = listed.length > 0 ? listed : [{ path: field, message: error.message }];
  const shown = issues.filter((issue) => isShownPath(issue.path));
  if (shown.length === 0) return { kind: 'toast', message: error.message };
  return { kind: 'fields', issues: shown, unplaced: issues.filter((issue) => !isShownPath(issue.path)).map(issueText) };
}

// The sweep form of the backtest results (issue 20): what the trader types, read into the
// `sweep_input` of estimate_sweep / start_sweep (packages/server/src/graphql/actions/sweep-input.ts),
// and the server's refusals put back by field. Pure: the form keeps text as typed; reading it
// either gives the input or names every field that is not a number.
import type { SweepMetric } from '@vyuha/engine';
import { isSweepMetric } from '@vyuha/engine';

/** One declared parameter as estimate_sweep reports it (its effective range). */
export interface DeclaredParameter {
  readonly name: string;
  readonly default: number;
  readonly from: number;
  readonly to: number;
  readonly step: number;
}

export interface RangeFields {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly step: string;
}

export type SweepKind = 'sweep' | 'walkforward';

export interface SweepFormState {
  readonly kind: SweepKind;
  readonly ranges: readonly RangeFields[];
  /** One condition per line, e.g. `$fast < $slow`. */
  readonly constraints: string;
  readonly sampled: boolean;
  readonly sampleCount: string;
  readonly sampleSeed: string;
  readonly metric: SweepMetric;
  readonly inSampleDays: string;
  readonly outOfSampleDays: string;
  /** Empty: the server's default (the out-of-sample days). */
  readonly stepDays: string;
  readonly anchored: boolean;
}

/** The input of estimate_sweep and start_sweep (GraphQL `sweep_input`). */
export interface SweepInput {
  readonly run_id: string;
  readonly kind: SweepKind;
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly from: number; readonly to: number; readonly step: number }>;
  readonly constraints: readonly string[];
  readonly sample: { readonly count: number; readonly seed: number } | null;
  readonly metric: SweepMetric;
  readonly walkForward: { readonly inSampleDays: number; readonly outOfSampleDays: number; readonly stepDays?: number; readonly anchored: boolean } | null;
}

/** Messages by input path (`parameters[0].step`, `sample.count`, `walkForward.inSampleDays`); '' for the whole form. */
export type FieldIssues = Readonly<Record<string, string>>;

export type ReadResult = { readonly ok: true; readonly input: SweepInput } | { readonly ok: false; readonly issues: FieldIssues };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The declared parameters of estimate_sweep's `parameters` (jsonb) or an algorithm document's
 * `parameters`; entries that are not { name, default, from, to, step } are left out.
 * @example declaredParameters([{ name: 'fast', default: 10, from: 5, to: 30, step: 5 }])[0].name // 'fast'
 */
export function declaredParameters(value: unknown): DeclaredParameter[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (!isRecord(item) || typeof item.name !== 'string') return [];
    const { from, to, step } = item;
    if (!finite(from) || !finite(to) || !finite(step)) return [];
    return [{ name: item.name, default: finite(item.default) ? item.default : from, from, to, step }];
  });
}

/** The form prefilled with the algorithm's ranges and constraints: every combination, ranked by Sharpe. */
export function initialForm(parameters: readonly DeclaredParameter[], constraints: readonly string[]): SweepFormState {
  return {
    kind: 'sweep',
    ranges: parameters.map((parameter) => ({ name: parameter.name, from: String(parameter.from), to: String(parameter.to), step: String(parameter.step) })),
    constraints: constraints.join('\n'),
    sampled: false,
    sampleCount: '100',
    sampleSeed: '1',
    metric: 'sharpe',
    inSampleDays: '20',
    outOfSampleDays: '5',
    stepDays: '',
    anchored: false,
  };
}

function numberOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

function wholeOf(text: string, minimum: number): number | undefined {
  const value = numberOf(text);
  return value !== undefined && Number.isSafeInteger(value) && value >= minimum ? value : undefined;
}

/** The constraint lines, blanks dropped. @example constraintLines('$fast < $slow\n\n') // ['$fast < $slow'] */
export function constraintLines(text: string): string[] {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

function readWalkForward(form: SweepFormState, issues: Record<string, string>): SweepInput['walkForward'] {
  if (form.kind !== 'walkforward') return null;
  const inSampleDays = wholeOf(form.inSampleDays, 1);
  const outOfSampleDays = wholeOf(form.outOfSampleDays, 1);
  if (inSampleDays === undefined) issues['walkForward.inSampleDays'] = 'a whole number of trading days, 1 or more';
  if (outOfSampleDays === undefined) issues['walkForward.outOfSampleDays'] = 'a whole number of trading days, 1 or more';
  let stepDays: number | undefined;
  if (form.stepDays.trim() !== '') {
    stepDays = wholeOf(form.stepDays, 1);
    if (stepDays === undefined) issues['walkForward.stepDays'] = 'a whole number of trading days, 1 or more (or empty: the out-of-sample days)';
  }
  return { inSampleDays: inSampleDays ?? 0, outOfSampleDays: outOfSampleDays ?? 0, ...(stepDays === undefined ? {} : { stepDays }), anchored: form.anchored };
}

/**
 * The input the form stands for, or the fields that are not numbers (the server checks the rest:
 * grids, constraints, windows, credits).
 * @example readSweepForm(runId, initialForm(parameters, [])).ok // true
 */
export function readSweepForm(runId: string, form: SweepFormState): ReadResult {
  const issues: Record<string, string> = {};
  const parameters = form.ranges.map((range, index) => {
    const values = { from: numberOf(range.from), to: numberOf(range.to), step: numberOf(range.step) };
    for (const field of ['from', 'to', 'step'] as const) {
      if (values[field] === undefined) issues[`parameters[${index}].${field}`] = 'a number';
    }
    return { name: range.name, from: values.from ?? 0, to: values.to ?? 0, step: values.step ?? 0 };
  });
  let sample: SweepInput['sample'] = null;
  if (form.sampled) {
    const count = wholeOf(form.sampleCount, 1);
    const seed = numberOf(form.sampleSeed);
    if (count === undefined) issues['sample.count'] = 'a whole number of combinations, 1 or more';
    if (seed === undefined || !Number.isSafeInteger(seed)) issues['sample.seed'] = 'a whole number';
    sample = { count: count ?? 0, seed: seed ?? 0 };
  }
  const walkForward = readWalkForward(form, issues);
  if (Object.keys(issues).length > 0) return { ok: false, issues };
  return { ok: true, input: { run_id: runId, kind: form.kind, parameters, constraints: constraintLines(form.constraints), sample, metric: form.metric, walkForward } };
}

/** The key of an input path under which the form shows it (`$.selectionSet.x.args.input.sample.count` -> `sample.count`). */
function formPath(path: string): string {
  const match = /\.args\.input\.?(.*)$/.exec(path);
  return match === null ? path : (match[1] ?? '');
}

/**
 * A refusal's issues (`extensions.issues`: { path, message }, the message starting with its
 * path) by form field; a refusal without issues goes under '' with its message.
 * @example serverIssues({ message: 'x', extensions: { issues: [{ path: 'sample.seed', message: 'sample.seed: must be a whole number' }] } }) // { 'sample.seed': 'must be a whole number' }
 */
export function serverIssues(error: { readonly message: string; readonly extensions?: unknown } | undefined): FieldIssues {
  if (error === undefined) return {};
  const listed = isRecord(error.extensions) ? error.extensions.issues : undefined;
  if (!Array.isArray(listed) || listed.length === 0) return { '': error.message };
  const issues: Record<string, string> = {};
  for (const issue of listed) {
    if (!isRecord(issue) || typeof issue.message !== 'string') continue;
    const path = typeof issue.path === 'string' ? formPath(issue.path) : '';
    const message = path !== '' && issue.message.startsWith(`${path}: `) ? issue.message.slice(path.length + 2) : issue.message;
    issues[path] = issues[path] === undefined ? message : `${issues[path]}; ${message}`;
  }
  return issues;
}

/** The issues under a field and its sub-fields (`constraints` gathers `constraints[0]`, `constraints[2]`), as one text. */
export function issueAt(issues: FieldIssues, field: string): string | undefined {
  const found = Object.entries(issues).filter(([path]) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`));
  if (found.length === 0) return undefined;
  return found.map(([path, message]) => {
    const line = /^constraints\[(\d+)\]/.exec(path);
    return line === null || path === field ? message : `line ${Number(line[1]) + 1}: ${message}`;
  }).join('; ');
}

/** The issues no field of the form shows (the run, the ranges as a whole, anything unknown). */
export function generalIssues(issues: FieldIssues, shown: readonly string[]): string[] {
  return Object.entries(issues).filter(([path]) => !shown.some((field) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`)))
    .map(([path, message]) => (path === '' ? message : `${path}: ${message}`));
}

/** The metric chosen in a select, kept to the sweep metrics. */
export function metricOf(value: string | null, fallback: SweepMetric): SweepMetric {
  return value !== null && isSweepMetric(value) ? value : fallback;
}

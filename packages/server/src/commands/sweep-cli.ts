// What `vyuha sweep` and `vyuha walkforward` (sweep.ts) read from the command line: their options,
// the algorithm document with its $parameters (--algo FILE.json, or --entry/--exit with
// --param NAME=FROM:TO:STEP and --constraint), the grid (all combinations or a seeded --sample),
// the metric, the worker threads, the candles and the config. The candles and the config are read
// as `vyuha backtest` reads them (backtest-data.ts, backtest-cli.ts); the rest is the sweeps' own.
//
// Invariants:
// - A wrong command line is a UsageError naming the flag (exit code 2); a refused algorithm,
//   grid, CSV or config is a list of lines naming the flag or file (exit code 1), as backtest does.
// - --param on an --algo file replaces that parameter's range (or adds the parameter); its
//   default stays when inside the new range, else becomes the range's start.
import type { AlgorithmDocument, AlgorithmError, AlgorithmParameter, BacktestConfigInput, BarSeries, ParameterBindings, SweepMetric } from '@vyuha/engine';
import {
  algorithmFromExpressions, BacktestConfigError, compileAlgorithm, formatAlgorithmError, isSweepMetric, parameterGrid, parseAlgorithmJson, SWEEP_METRICS,
  validateBacktestConfig,
} from '@vyuha/engine';
import { formatParseIssue } from '@vyuha/market';
import { poolSize } from '../sweep/run-pool';
import { configIssues, configOf, readText, type Values } from './backtest-cli';
import { barSeriesOfFile } from './backtest-data';
import { UsageError } from './command';

/** Options both commands take. */
export const SWEEP_OPTIONS = {
  'data': { type: 'string' }, 'algo': { type: 'string' }, 'entry': { type: 'string' }, 'exit': { type: 'string' },
  'param': { type: 'string', multiple: true }, 'constraint': { type: 'string', multiple: true },
  'metric': { type: 'string' }, 'sample': { type: 'string' }, 'seed': { type: 'string' }, 'workers': { type: 'string' },
  'type': { type: 'string' }, 'interval': { type: 'string' }, 'capital': { type: 'string' }, 'sizing': { type: 'string' },
  'lot-size': { type: 'string' }, 'fill': { type: 'string' }, 'charges': { type: 'string' }, 'from': { type: 'string' },
  'to': { type: 'string' }, 'json': { type: 'boolean' }, 'symbol': { type: 'string' }, 'options': { type: 'string' },
} as const;

/** Parsed values of SWEEP_OPTIONS (and a command's own). */
export type SweepValues = Record<string, string | boolean | string[] | undefined>;

/** What both commands run on but the bars: the document, its grid, the config, the metric, the threads. */
export interface SweepSetup {
  readonly document: AlgorithmDocument;
  readonly parameters: readonly AlgorithmParameter[];
  readonly constraints: readonly string[];
  readonly combinations: readonly ParameterBindings[];
  readonly config: BacktestConfigInput;
  readonly metric: SweepMetric;
  readonly workers: number;
  /** The sample taken, when --sample was given. */
  readonly sample?: { readonly count: number; readonly seed: number };
}

/** What both commands run on. */
export interface SweepInputs extends SweepSetup {
  readonly series: BarSeries;
  /** Where the bars come from and what the runs trade, as the text output says it. */
  readonly source: string;
}

/** The values of single-valued options only, as backtest-cli.ts reads them. */
export function plainValues(values: SweepValues): Values {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string | boolean | undefined] => !Array.isArray(entry[1])));
}

/** A whole number option within bounds, or undefined when absent. */
export function wholeOption(values: SweepValues, name: string, bounds: { min: number; max: number }): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (typeof text !== 'string' || !/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new UsageError(`--${name} must be a whole number from ${bounds.min} to ${bounds.max.toLocaleString('en-US')}, got "${String(text)}"`);
  }
  return value;
}

/**
 * `--param fast=5:50:5` as a parameter (default: the range's start).
 * @example parseParam('fast=5:50:5') // { name: 'fast', default: 5, from: 5, to: 50, step: 5 }
 */
export function parseParam(text: string): AlgorithmParameter {
  const match = /^\$?([A-Za-z_]\w*)=([^:]+):([^:]+):([^:]+)$/.exec(text.trim());
  const numbers = match === null ? [] : [match[2], match[3], match[4]].map((part) => Number(part));
  if (match === null || numbers.some((value) => !Number.isFinite(value))) {
    throw new UsageError(`--param must be NAME=FROM:TO:STEP (numbers, e.g. fast=5:50:5), got "${text}"`);
  }
  const [from, to, step] = numbers as [number, number, number];
  return { name: match[1] as string, default: from, from, to, step };
}

function metricOf(values: SweepValues): SweepMetric {
  const name = typeof values.metric === 'string' ? values.metric : 'sharpe';
  if (!isSweepMetric(name)) throw new UsageError(`--metric must be one of ${Object.keys(SWEEP_METRICS).join(', ')}, got "${name}"`);
  return name;
}

/** The document from --algo or --entry/--exit, with --param and --constraint applied; or the errors. */
export function sweepDocumentOf(values: SweepValues): { document?: AlgorithmDocument; errors: string[]; label: (error: AlgorithmError) => string } {
  const hasAlgo = typeof values.algo === 'string';
  if (hasAlgo === (typeof values.entry === 'string')) throw new UsageError('give either --algo FILE.json or --entry EXPR (with --exit EXPR), not both or neither');
  const flagged = ((values.param ?? []) as string[]).map(parseParam);
  const added = (values.constraint ?? []) as string[];
  let base: AlgorithmDocument;
  let label: (error: AlgorithmError) => string;
  if (hasAlgo) {
    const file = values.algo as string;
    const parsed = parseAlgorithmJson(readText(file, '--algo'));
    if (!parsed.ok) return { errors: parsed.error.map((error) => `${file}: ${formatAlgorithmError(error)}`), label: formatAlgorithmError };
    base = parsed.value;
    label = (error) => `${file}: ${formatAlgorithmError(error)}`;
  } else {
    base = algorithmFromExpressions({ entry: values.entry as string, ...(typeof values.exit === 'string' ? { exit: values.exit } : {}) });
    const optionOf = (error: AlgorithmError): string => (error.nodeId === 'entry' ? '--entry' : error.nodeId === 'exit-condition' ? '--exit' : error.path);
    label = (error) => `${optionOf(error)}: ${error.line === undefined ? '' : `${error.line}:${error.column ?? 1}: `}${error.message}`;
  }
  const declared = [...(base.parameters ?? [])];
  for (const parameter of flagged) {
    const at = declared.findIndex((known) => known.name === parameter.name);
    const previous = declared[at];
    if (previous === undefined) {
      declared.push(parameter);
      continue;
    }
    const keeps = previous.default >= parameter.from && previous.default <= parameter.to;
    declared[at] = { ...parameter, default: keeps ? previous.default : parameter.from };
  }
  const constraints = [...(base.constraints ?? []), ...added];
  const document: AlgorithmDocument = { ...base, parameters: declared, constraints };
  const flagOf = (error: AlgorithmError): string | undefined => {
    const parameter = /^parameters\[(\d+)\]/.exec(error.path);
    const name = parameter === null ? undefined : declared[Number(parameter[1])]?.name;
    if (name !== undefined && flagged.some((flag) => flag.name === name)) return `--param ${name}`;
    const constraint = /^constraints\[(\d+)\]/.exec(error.path);
    const index = constraint === null ? -1 : Number(constraint[1]) - (base.constraints ?? []).length;
    return index >= 0 ? `--constraint "${added[index] as string}"` : undefined;
  };
  const labelled = (error: AlgorithmError): string => {
    const flag = flagOf(error);
    return flag === undefined ? label(error) : `${flag}: ${error.line === undefined ? '' : `${error.line}:${error.column ?? 1}: `}${error.message}`;
  };
  const compiled = compileAlgorithm(document);
  if (!compiled.ok) return { errors: compiled.error.map(labelled), label: labelled };
  if (declared.length === 0) {
    return { errors: ['no parameters to sweep: give --param NAME=FROM:TO:STEP (or "parameters" in the --algo file)'], label: labelled };
  }
  return { document, errors: [], label: labelled };
}

/** The grid's combinations (or the seeded sample); errors name --param, --constraint, --sample or --seed. */
function combinationsOf(document: AlgorithmDocument, values: SweepValues, label: (error: AlgorithmError) => string): { combinations?: ParameterBindings[]; sample?: { count: number; seed: number }; errors: string[] } {
  const count = wholeOption(values, 'sample', { min: 1, max: 100_000 });
  if (count === undefined && values.seed !== undefined) throw new UsageError('--seed goes with --sample N (a seeded random sample of N combinations)');
  const seed = wholeOption(values, 'seed', { min: 0, max: Number.MAX_SAFE_INTEGER }) ?? 1;
  const sample = count === undefined ? undefined : { count, seed };
  const grid = parameterGrid(document.parameters ?? [], document.constraints ?? [], sample === undefined ? {} : { sample });
  if (!grid.ok) {
    return { errors: grid.error.map((error) => (error.path === 'parameters' ? `grid: ${error.message}` : label(error))) };
  }
  if (grid.value.length === 0) return { errors: ['grid: no combination satisfies every constraint (--constraint, or "constraints" in the --algo file)'] };
  return { combinations: grid.value, ...(sample === undefined ? {} : { sample }), errors: [] };
}

/**
 * Everything a sweep or walk-forward needs from the command line but the bars, or the lines saying
 * what is wrong; the config is read from `configValues` (the plain values, or those a stored-history
 * run reads its config from).
 */
export function sweepSetupOf(values: SweepValues, configValues: Values): { setup?: SweepSetup; errors: string[] } {
  const metric = metricOf(values);
  const workers = poolSize(wholeOption(values, 'workers', { min: 1, max: 256 }));
  const config = configOf(configValues);
  try {
    validateBacktestConfig(config);
  } catch (error) {
    if (error instanceof BacktestConfigError) return { errors: configIssues(error) };
    throw error;
  }
  const { document, errors, label } = sweepDocumentOf(values);
  if (document === undefined) return { errors };
  const grid = combinationsOf(document, values, label);
  if (grid.combinations === undefined) return { errors: grid.errors };
  return {
    setup: {
      document, parameters: document.parameters ?? [], constraints: document.constraints ?? [], combinations: grid.combinations, config, metric, workers,
      ...(grid.sample === undefined ? {} : { sample: grid.sample }),
    },
    errors: [],
  };
}

/** Everything a sweep or walk-forward of a CSV (--data) needs from the command line, or the lines saying what is wrong. */
export function sweepInputsOf(values: SweepValues): { inputs?: SweepInputs; errors: string[] } {
  const dataFile = values.data;
  if (typeof dataFile !== 'string' || dataFile === '') throw new UsageError('--data is required (or --symbol S with --from and --to: stored history)');
  const plain = plainValues(values);
  const { setup, errors } = sweepSetupOf(values, plain);
  if (setup === undefined) return { errors };
  const read = barSeriesOfFile(dataFile, plain);
  if (!read.ok) return { errors: read.error.map((issue) => `${dataFile}:${formatParseIssue(issue)}`) };
  const series = read.value;
  if (series.length === 0) return { errors: [`${dataFile}: no candles between --from and --to`] };
  return { inputs: { ...setup, series, source: dataFile }, errors: [] };
}

/** Prints refusals as `vyuha <command>: <line>`; exit code 1. */
export function refuse(command: string, lines: readonly string[]): number {
  process.stderr.write(`${lines.map((line) => `vyuha ${command}: ${line}`).join('\n')}\n`);
  return 1;
}

/** The parameters as `$fast 5..50 by 5, $slow 10..200 by 10`, then the constraints. */
export function gridText(parameters: readonly AlgorithmParameter[], constraints: readonly string[]): string {
  const axes = parameters.map((parameter) => `$${parameter.name} ${parameter.from}..${parameter.to} by ${parameter.step}`).join(', ');
  return constraints.length === 0 ? axes : `${axes}; ${constraints.join(', ')}`;
}

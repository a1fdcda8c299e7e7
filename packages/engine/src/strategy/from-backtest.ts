// "Deploy this": a finished backtest's request becomes a deployable strategy config. A request is a
// grid (backtest-request/expand-request.ts): algorithms x date ranges x (interval, investment)
// pairs. Date ranges do not matter to a deployment, but the algorithm and the pair do, so a
// request with several of either needs the chosen cell (a run key of `expandBacktestRequest`).
// The backtest sized all-in on the investment and took its daily limits from the option legs
// (server/src/backtest/stored-run.ts), so the deployable config does the same.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import type { ConfigIssue } from '../backtest/config';
import type { BacktestRequest } from '../backtest-request/backtest-request';
import { expandBacktestRequest } from '../backtest-request/expand-request';
import type { BacktestRun } from '../backtest-request/expand-request';
import { parseDeployableConfig } from './deployable-config';
import type { DeployableConfig } from './deployable-config';

export interface DeployChoice {
  /** The saved version of the chosen algorithm that the backtest ran (the request names only its id). */
  readonly version: number;
  /** The run key of the chosen cell; needed when the request has several algorithms or interval/investment pairs. */
  readonly cell?: string;
  readonly manual?: boolean;
}

function chosenRun(request: BacktestRequest, cell: string | undefined): Result<BacktestRun, ConfigIssue[]> {
  const runs = expandBacktestRequest(request);
  if (cell !== undefined) {
    const run = runs.find((candidate) => candidate.key === cell);
    return run === undefined ? err([{ field: 'cell', message: `is not a run of this backtest, got ${JSON.stringify(cell)}` }]) : ok(run);
  }
  const issues: ConfigIssue[] = [];
  if (request.algorithms.length > 1) issues.push({ field: 'algorithms', message: `has ${request.algorithms.length} algorithms: choose the cell to deploy` });
  if (request.frequenciesAndInvestments.length > 1) {
    issues.push({ field: 'frequenciesAndInvestments', message: `has ${request.frequenciesAndInvestments.length} interval/investment pairs: choose the cell to deploy` });
  }
  const first = runs[0];
  if (issues.length > 0 || first === undefined) return err(issues.length > 0 ? issues : [{ field: 'cell', message: 'the backtest has no runs' }]);
  return ok(first);
}

/**
 * The deployable config of one cell of a finished backtest.
 * @example deployableFromBacktest(request, { version: 3 }) // ok: its algorithm at version 3, interval and investment of its only pair, sizing all-in
 */
export function deployableFromBacktest(request: BacktestRequest, choice: DeployChoice): Result<DeployableConfig, ConfigIssue[]> {
  const chosen = chosenRun(request, choice.cell);
  if (!chosen.ok) return chosen;
  const run = chosen.value;
  if (run.algorithm.kind !== 'id') {
    const index = request.algorithms.indexOf(run.algorithm);
    return err([{ field: `algorithms[${index}]`, message: 'is an unsaved algorithm: save it before deploying' }]);
  }
  return parseDeployableConfig({
    algorithm: { id: run.algorithm.id, version: choice.version },
    legs: run.tradeInstrumentsConfig,
    instrument: run.instrument, interval: run.interval, type: run.strategyType, investment: run.investment,
    manual: choice.manual ?? false,
  });
}

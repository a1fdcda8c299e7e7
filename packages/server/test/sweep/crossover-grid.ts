// The small SMA-crossover sweep the pool tests run: $fast 3..12 by 3 x $slow 10..40 by 10 with
// $fast < $slow (15 combinations), traded as 50 units of a future with NSE's charges.
import { algorithmFromExpressions, parameterGrid } from '@vyuha/engine';
import type { AlgorithmParameter, BacktestConfigInput, ParameterBindings } from '@vyuha/engine';

export const FAST: AlgorithmParameter = { name: 'fast', default: 3, from: 3, to: 12, step: 3 };
export const SLOW: AlgorithmParameter = { name: 'slow', default: 10, from: 10, to: 40, step: 10 };
export const document = {
  ...algorithmFromExpressions({ entry: 'crossover(sma(close, $fast), sma(close, $slow))', exit: 'crossunder(sma(close, $fast), sma(close, $slow))' }),
  parameters: [FAST, SLOW],
  constraints: ['$fast < $slow'],
};
export const config: BacktestConfigInput = { type: 'swing', sizing: { kind: 'quantity', quantity: 50 }, charges: { kind: 'schedule', exchange: 'NSE', instrument: 'future' } };

/** Every combination of `parameters` that meets `constraints`; throws on a bad grid. */
export function gridOf(parameters: readonly AlgorithmParameter[], constraints: readonly string[]): ParameterBindings[] {
  const grid = parameterGrid(parameters, constraints);
  if (!grid.ok) throw new Error(JSON.stringify(grid.error));
  return grid.value;
}

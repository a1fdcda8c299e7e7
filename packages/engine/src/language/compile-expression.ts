import type { Result } from '@vyuha/core';
import { err, ok } from '@vyuha/core';
import type { BarSeries, PositionContext } from '../algorithm/program';
import type { ValueType } from './checked';
import type { CheckOptions } from './checker';
import { checkExpression } from './checker';
import type { ExpressionError } from './expression-error';
import type { InstantiateOptions } from './expression-plan';
import { ExpressionPlan } from './expression-plan';

/** Values of one expression bar by bar. Call `next` for every bar, in order, exactly once each. */
export interface ExpressionEvaluator {
  /** The value at the close of bar `index` (booleans as 1 or 0, times as IST minutes of the day). */
  next(index: number, position: PositionContext): number;
}

/** A checked, compiled expression; each evaluator owns fresh indicator state. */
export interface CompiledExpression {
  readonly type: ValueType;
  /** Bars needed before the value is defined (NaN before). */
  readonly warmup: number;
  createEvaluator(series: BarSeries, options?: InstantiateOptions): ExpressionEvaluator;
}

/**
 * Checks and compiles one expression to a per-bar evaluator (the chart's indicator previews use it).
 * @example compileExpression('close - open').ok // true
 */
export function compileExpression(source: string, options: CheckOptions = {}): Result<CompiledExpression, ExpressionError[]> {
  const checked = checkExpression(source, options);
  if (!checked.ok) return err(checked.error);
  const plan = new ExpressionPlan();
  const root = plan.add(checked.value.root);
  return ok({
    type: checked.value.type,
    warmup: plan.warmupOf(root),
    createEvaluator(series: BarSeries, instantiateOptions: InstantiateOptions = {}): ExpressionEvaluator {
      const { slots, expressionSteps } = plan.instantiate(series, instantiateOptions);
      const steps = expressionSteps;
      return {
        next(index: number, position: PositionContext): number {
          for (let k = 0; k < steps.length; k += 1) (steps[k] as (typeof steps)[number])(index, position);
          return slots[root] as number;
        },
      };
    },
  });
}

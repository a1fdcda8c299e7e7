import type { IndicatorFunction } from '../indicators/indicator';
import type { ArithmeticOperator, ComparisonOperator } from './ast';

/**
 * The checked tree: names resolved, types known, constants folded, default parameters filled in.
 * The compiler only ever sees this tree, so it never has to report a user error.
 */

/** `time` is a time of day in IST minutes since midnight (0..1439); booleans are 1 or 0. */
export type ValueType = 'number' | 'boolean' | 'time';

export const BAR_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'oi'] as const;
export type BarField = (typeof BAR_FIELDS)[number];

export const POSITION_FIELDS = ['position', 'entry_price', 'bars_since_entry', 'day_pnl'] as const;
export type PositionField = (typeof POSITION_FIELDS)[number];

export type CheckedNode =
  | { readonly kind: 'constant'; readonly type: ValueType; readonly value: number }
  | { readonly kind: 'field'; readonly type: 'number'; readonly field: BarField }
  | { readonly kind: 'position'; readonly type: 'number'; readonly field: PositionField }
  | { readonly kind: 'time'; readonly type: 'time' }
  | { readonly kind: 'lookback'; readonly type: ValueType; readonly target: CheckedNode; readonly bars: number }
  | { readonly kind: 'negate'; readonly type: 'number'; readonly operand: CheckedNode }
  | { readonly kind: 'not'; readonly type: 'boolean'; readonly operand: CheckedNode }
  | { readonly kind: 'arithmetic'; readonly type: 'number'; readonly operator: ArithmeticOperator; readonly left: CheckedNode; readonly right: CheckedNode }
  | { readonly kind: 'comparison'; readonly type: 'boolean'; readonly operator: ComparisonOperator; readonly left: CheckedNode; readonly right: CheckedNode }
  | { readonly kind: 'logical'; readonly type: 'boolean'; readonly operator: 'and' | 'or'; readonly left: CheckedNode; readonly right: CheckedNode }
  | {
      readonly kind: 'indicator';
      readonly type: 'number';
      readonly function: IndicatorFunction;
      /** The series argument; absent for bar indicators (`atr(14)`). */
      readonly input: CheckedNode | undefined;
      /** Every parameter, defaults filled in. */
      readonly parameters: readonly number[];
    }
  | { readonly kind: 'cross'; readonly type: 'boolean'; readonly direction: 'over' | 'under'; readonly left: CheckedNode; readonly right: CheckedNode }
  | { readonly kind: 'math'; readonly type: 'number'; readonly name: 'abs' | 'min' | 'max'; readonly operands: readonly CheckedNode[] }
  | { readonly kind: 'extreme'; readonly type: 'number'; readonly name: 'highest' | 'lowest'; readonly input: CheckedNode; readonly bars: number };

/** A checked expression, ready to compile. */
export interface CheckedExpression {
  readonly root: CheckedNode;
  readonly type: ValueType;
}

/**
 * A canonical key: two nodes with the same key compute the same values bar by bar, so the
 * compiler computes them once (`sma(close, 10)` in two conditions is one indicator).
 */
export function nodeKey(node: CheckedNode): string {
  switch (node.kind) {
    case 'constant':
      return `${node.type}:${node.value}`;
    case 'field':
    case 'position':
      return node.field;
    case 'time':
      return 'time()';
    case 'lookback':
      return `${nodeKey(node.target)}[${node.bars}]`;
    case 'negate':
      return `-(${nodeKey(node.operand)})`;
    case 'not':
      return `not(${nodeKey(node.operand)})`;
    case 'arithmetic':
    case 'comparison':
    case 'logical':
      return `(${nodeKey(node.left)} ${node.operator} ${nodeKey(node.right)})`;
    case 'indicator': {
      const input = node.input === undefined ? [] : [nodeKey(node.input)];
      return `${node.function.name}(${[...input, ...node.parameters.map(String)].join(', ')})`;
    }
    case 'cross':
      return `cross${node.direction}(${nodeKey(node.left)}, ${nodeKey(node.right)})`;
    case 'math':
      return `${node.name}(${node.operands.map(nodeKey).join(', ')})`;
    case 'extreme':
      return `${node.name}(${nodeKey(node.input)}, ${node.bars})`;
  }
}

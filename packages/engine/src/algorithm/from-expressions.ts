import type { AlgorithmDocument, AlgorithmEdge, AlgorithmNode, ExitRules } from './document';
import { ALGORITHM_FORMAT, ALGORITHM_VERSION } from './document';

/** What the CLI's `--entry` / `--exit` give. */
export interface ExpressionAlgorithmOptions {
  /** When to open a position. */
  readonly entry: string;
  /** When to close it; without one, only the exit rules (or the kernel's square-off) close it. */
  readonly exit?: string;
  /** `long` (default): entry buys. `short`: entry sells. */
  readonly direction?: 'long' | 'short';
  readonly exits?: ExitRules;
}

/**
 * A two-rule graph: entry condition -> buy (or sell when short), exit condition -> exit node.
 * The exit goes to an `exit` node rather than the opposite action, so a long-only strategy never
 * opens a short. The result is a plain document: compile it with `compileAlgorithm`.
 * @example algorithmFromExpressions({ entry: 'close > sma(close, 20)', exit: 'close < sma(close, 20)' }).nodes.length // 4
 */
export function algorithmFromExpressions(options: ExpressionAlgorithmOptions): AlgorithmDocument {
  const action = options.direction === 'short' ? 'sell' : 'buy';
  const nodes: AlgorithmNode[] = [
    { id: 'entry', type: 'condition', position: { x: 0, y: 0 }, label: 'Entry', expression: options.entry },
    { id: action, type: action, position: { x: 300, y: 0 } },
  ];
  const edges: AlgorithmEdge[] = [{ id: `entry-${action}`, source: 'entry', target: action }];
  if (options.exit !== undefined) {
    nodes.push({ id: 'exit-condition', type: 'condition', position: { x: 0, y: 150 }, label: 'Exit', expression: options.exit });
    nodes.push({ id: 'exit', type: 'exit', position: { x: 300, y: 150 } });
    edges.push({ id: 'exit-condition-exit', source: 'exit-condition', target: 'exit' });
  }
  const base = { format: ALGORITHM_FORMAT, version: ALGORITHM_VERSION, nodes, edges } as const;
  return options.exits === undefined ? base : { ...base, exits: options.exits };
}

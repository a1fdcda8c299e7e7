/**
 * The stored algorithm: a versioned JSON rule graph (the `graph` of an `algorithm_versions` row,
 * whose `schema_version` is `version` here). Conditions hold expressions; and/or/not/hold nodes
 * combine them; buy/sell/exit nodes are the sinks. Positions (and optional sizes) are kept for the
 * React Flow editor and mean nothing to the engine.
 */

export const ALGORITHM_FORMAT = 'vyuha.algorithm';
/** The newest document version this engine reads and writes. */
export const ALGORITHM_VERSION = 1;
/** The editor draws hold nodes 20 high (spec: "hold-type nodes get height 20"). */
export const HOLD_NODE_HEIGHT = 20;

export type AlgorithmNodeType = 'condition' | 'and' | 'or' | 'not' | 'hold' | 'buy' | 'sell' | 'exit';
export const ALGORITHM_NODE_TYPES: readonly AlgorithmNodeType[] = ['condition', 'and', 'or', 'not', 'hold', 'buy', 'sell', 'exit'];
export type ActionNodeType = 'buy' | 'sell' | 'exit';

export interface NodePosition {
  readonly x: number;
  readonly y: number;
}

/** Fields every node has. */
interface NodeBase {
  readonly id: string;
  readonly position: NodePosition;
  readonly label?: string;
  /** Editor geometry, kept as given. */
  readonly width?: number;
  readonly height?: number;
}

export interface ConditionNode extends NodeBase {
  readonly type: 'condition';
  /** A boolean expression: `crossover(sma(close, 10), sma(close, 20))`. */
  readonly expression: string;
}

export interface GateNode extends NodeBase {
  readonly type: 'and' | 'or' | 'not';
}

/** Holds for `candles` bars after its input (exactly one of `candles` and `until`). */
export interface HoldCandlesNode extends NodeBase {
  readonly type: 'hold';
  readonly candles: number;
}

/** Holds from its input until the `until` expression is true. */
export interface HoldUntilNode extends NodeBase {
  readonly type: 'hold';
  readonly until: string;
}

export type HoldNode = HoldCandlesNode | HoldUntilNode;

export interface ActionNode extends NodeBase {
  readonly type: ActionNodeType;
}

export type AlgorithmNode = ConditionNode | GateNode | HoldNode | ActionNode;

/** Data flows from `source` to `target`. */
export interface AlgorithmEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
}

export type ExitUnit = 'points' | 'percent';

/** A distance from the entry price: `{ unit: 'percent', value: 1.5 }` is 1.5% of the entry price. */
export interface ExitDistance {
  readonly unit: ExitUnit;
  readonly value: number;
}

/** Exit rules the kernel applies inside each bar (from its high and low), besides the exit node. */
export interface ExitRules {
  readonly stopLoss?: ExitDistance;
  readonly target?: ExitDistance;
  readonly trailingStop?: ExitDistance;
}

/**
 * A number the expressions name as `$name`, with the grid a sweep walks: `from`, `from + step`,
 * ... up to `to` (a whole number of steps). `default` is the value when none is bound; it lies in
 * `from..to` but need not be on the grid.
 */
export interface AlgorithmParameter {
  /** Letters, digits and `_`, starting with a letter or `_`; written `$name` in expressions. */
  readonly name: string;
  readonly default: number;
  readonly from: number;
  readonly to: number;
  /** Greater than 0. */
  readonly step: number;
}

export interface AlgorithmDocument {
  readonly format: typeof ALGORITHM_FORMAT;
  readonly version: typeof ALGORITHM_VERSION;
  readonly nodes: readonly AlgorithmNode[];
  readonly edges: readonly AlgorithmEdge[];
  readonly exits?: ExitRules;
  /** Declared parameters, unique by name; a declared parameter need not be used. */
  readonly parameters?: readonly AlgorithmParameter[];
  /** Conditions over the parameters only (`$fast < $slow`): a combination breaking one is not run. */
  readonly constraints?: readonly string[];
}

/**
 * A problem in an algorithm document. `path` names the field (`nodes[3].expression`,
 * `edges[2].target`); `nodeId` says under which node the editor shows it; `line` and `column`
 * locate it inside an expression (or inside the JSON text, for a syntax error).
 */
export interface AlgorithmError {
  readonly path: string;
  readonly message: string;
  readonly nodeId?: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * One line per error, as the CLI prints it.
 * @example formatAlgorithmError({ path: 'nodes[3].expression', message: "unknown name 'clsoe'", line: 1, column: 5 }) // "nodes[3].expression: 1:5: unknown name 'clsoe'"
 */
export function formatAlgorithmError(error: AlgorithmError): string {
  const location = error.line === undefined ? '' : `${error.line}:${error.column ?? 1}: `;
  const path = error.path === '' ? '' : `${error.path}: `;
  return `${path}${location}${error.message}`;
}

// The rule graph both ways: the engine's stored document (algorithm_versions.graph, format
// vyuha.algorithm) <-> React Flow's nodes and edges. The editor keeps React Flow's lists as its
// state (they carry selection and measured sizes) and builds the document from them for checks
// and saves, so node positions and hold heights round-trip through the stored JSON.
import type { Edge, Node } from '@xyflow/react';
import {
  ALGORITHM_FORMAT, ALGORITHM_VERSION, HOLD_NODE_HEIGHT, validateAlgorithm,
  type AlgorithmDocument, type AlgorithmNode, type AlgorithmNodeType, type AlgorithmParameter, type ExitRules, type NodePosition,
} from '@vyuha/engine';

/**
 * A document's parameter declarations (`parameters`, `constraints`: what a sweep varies). The
 * canvas does not draw them; the editor's Parameters section edits them (parameters-model.ts) and
 * a save writes them with the graph.
 */
export interface ParameterDeclarations {
  readonly parameters?: readonly AlgorithmParameter[];
  readonly constraints?: readonly string[];
}

/** The declarations of a document, or none. */
export function parameterDeclarationsOf(document: AlgorithmDocument): ParameterDeclarations {
  return {
    ...(document.parameters === undefined ? {} : { parameters: document.parameters }),
    ...(document.constraints === undefined ? {} : { constraints: document.constraints }),
  };
}

/** What a hold node waits for: a number of candles, or an expression to become true. */
export type HoldRule = { readonly mode: 'candles'; readonly candles: number } | { readonly mode: 'until'; readonly until: string };

/** The editable fields of one node, as React Flow's `data`. */
export interface RuleData extends Record<string, unknown> {
  readonly kind: AlgorithmNodeType;
  readonly label?: string;
  /** Condition nodes: the boolean expression. */
  readonly expression?: string;
  /** Hold nodes only. */
  readonly hold?: HoldRule;
  /** Editor geometry kept from the stored document. */
  readonly width?: number;
}

export type RuleNode = Node<RuleData, 'rule'>;
export type RuleEdge = Edge;

/** The React Flow lists of a graph. */
export interface FlowGraph {
  readonly nodes: RuleNode[];
  readonly edges: RuleEdge[];
}

/** Kinds that have an output (feed other nodes); buy, sell and exit are sinks. */
export function hasOutput(kind: AlgorithmNodeType): boolean {
  return kind !== 'buy' && kind !== 'sell' && kind !== 'exit';
}

/** Kinds that take inputs; a condition's input is its expression. */
export function hasInput(kind: AlgorithmNodeType): boolean {
  return kind !== 'condition';
}

function ruleData(node: AlgorithmNode): RuleData {
  const base = { kind: node.type, ...(node.label === undefined ? {} : { label: node.label }), ...(node.width === undefined ? {} : { width: node.width }) };
  if (node.type === 'condition') return { ...base, expression: node.expression };
  if (node.type === 'hold') return { ...base, hold: 'until' in node ? { mode: 'until', until: node.until } : { mode: 'candles', candles: node.candles } };
  return base;
}

/** The React Flow node of a stored node; hold nodes are drawn HOLD_NODE_HEIGHT high (docs/PRODUCT.md section 3). */
export function flowNode(node: AlgorithmNode): RuleNode {
  const flow: RuleNode = { id: node.id, type: 'rule', position: { x: node.position.x, y: node.position.y }, data: ruleData(node) };
  return node.type === 'hold' ? { ...flow, height: HOLD_NODE_HEIGHT } : flow;
}

/**
 * A stored document as React Flow lists. Reads a document of the right shape (a validated one,
 * or one the editor wrote).
 * @example documentToFlow(algorithmFromExpressions({ entry: 'close > open' })).edges[0] // { id: 'entry-buy', source: 'entry', target: 'buy' }
 */
export function documentToFlow(document: AlgorithmDocument): FlowGraph {
  return {
    nodes: document.nodes.map(flowNode),
    edges: document.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
  };
}

function storedPosition(position: NodePosition): NodePosition {
  // Whole pixels: a drag gives fractions nobody needs in the stored JSON.
  return { x: Math.round(position.x), y: Math.round(position.y) };
}

function documentNode(node: RuleNode): AlgorithmNode {
  const { data } = node;
  const base = {
    id: node.id,
    position: storedPosition(node.position),
    ...(data.label === undefined || data.label === '' ? {} : { label: data.label }),
    ...(data.width === undefined ? {} : { width: data.width }),
  };
  switch (data.kind) {
    case 'condition':
      return { ...base, type: 'condition', expression: data.expression ?? '' };
    case 'hold': {
      const hold = data.hold ?? { mode: 'candles', candles: 1 };
      return hold.mode === 'until'
        ? { ...base, type: 'hold', height: HOLD_NODE_HEIGHT, until: hold.until }
        : { ...base, type: 'hold', height: HOLD_NODE_HEIGHT, candles: hold.candles };
    }
    default:
      return { ...base, type: data.kind };
  }
}

/**
 * The engine's document of the editor's lists (what Save stores as `graph`). Exit rules without
 * a distance are left out.
 * @example flowToDocument({ nodes: [], edges: [] }).format // 'vyuha.algorithm'
 */
export function flowToDocument(graph: FlowGraph, exits: ExitRules = {}, declarations: ParameterDeclarations = {}): AlgorithmDocument {
  const hasExits = Object.keys(exits).length > 0;
  return {
    format: ALGORITHM_FORMAT,
    version: ALGORITHM_VERSION,
    nodes: graph.nodes.map(documentNode),
    edges: graph.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
    ...(hasExits ? { exits } : {}),
    ...(declarations.parameters === undefined ? {} : { parameters: declarations.parameters }),
    ...(declarations.constraints === undefined ? {} : { constraints: declarations.constraints }),
  };
}

/** The first free id `<kind>-<n>` (n from 1): stable, readable ids the tests and the errors name. */
export function nextNodeId(kind: AlgorithmNodeType, nodes: readonly { readonly id: string }[]): string {
  const taken = new Set(nodes.map((node) => node.id));
  let n = 1;
  while (taken.has(`${kind}-${n}`)) n += 1;
  return `${kind}-${n}`;
}

/** Column of each kind on the canvas: conditions left, gates and holds in the middle, actions right. */
const COLUMN_X: Readonly<Record<AlgorithmNodeType, number>> = {
  condition: 0, and: 340, or: 340, not: 340, hold: 340, buy: 600, sell: 600, exit: 600,
};
const ROW_HEIGHT = 130;

function columnOf(kind: AlgorithmNodeType): number {
  return COLUMN_X[kind];
}

/** Where a new node goes: under the lowest node of its column. */
export function newNodePosition(kind: AlgorithmNodeType, nodes: readonly RuleNode[]): NodePosition {
  const x = columnOf(kind);
  const inColumn = nodes.filter((node) => columnOf(node.data.kind) === x);
  const lowest = inColumn.reduce((max, node) => Math.max(max, node.position.y), Number.NEGATIVE_INFINITY);
  return { x, y: inColumn.length === 0 ? 0 : lowest + ROW_HEIGHT };
}

/** The fields a new node of `kind` starts with. */
export function newRuleData(kind: AlgorithmNodeType): RuleData {
  if (kind === 'condition') return { kind, expression: '' };
  if (kind === 'hold') return { kind, hold: { mode: 'candles', candles: 1 } };
  return { kind };
}

/** The edge `source -> target`, id `<source>-<target>` (an edge between two nodes is unique). */
export function ruleEdge(source: string, target: string): RuleEdge {
  return { id: `${source}-${target}`, source, target };
}

/**
 * Adds a node of `kind`; when `from` names a node with an output and the new node takes inputs,
 * the two are connected (adding Buy with a condition selected wires the condition to it).
 */
export function addRuleNode(graph: FlowGraph, options: { kind: AlgorithmNodeType; from?: string | undefined }): FlowGraph & { readonly id: string } {
  const id = nextNodeId(options.kind, graph.nodes);
  const node: RuleNode = {
    id, type: 'rule', position: newNodePosition(options.kind, graph.nodes), data: newRuleData(options.kind), selected: true,
    ...(options.kind === 'hold' ? { height: HOLD_NODE_HEIGHT } : {}),
  };
  const source = graph.nodes.find((candidate) => candidate.id === options.from);
  const connect = source !== undefined && hasOutput(source.data.kind) && hasInput(options.kind);
  return {
    id,
    nodes: [...graph.nodes.map((other) => (other.selected ? { ...other, selected: false } : other)), node],
    edges: connect ? [...graph.edges, ruleEdge(source.id, id)] : graph.edges,
  };
}

/** Removes nodes and every edge touching them. */
export function removeRuleNodes(graph: FlowGraph, ids: readonly string[]): FlowGraph {
  const gone = new Set(ids);
  return {
    nodes: graph.nodes.filter((node) => !gone.has(node.id)),
    edges: graph.edges.filter((edge) => !gone.has(edge.source) && !gone.has(edge.target)),
  };
}

/** Replaces one node's data fields. */
export function updateRuleData(nodes: readonly RuleNode[], id: string, change: Partial<RuleData>): RuleNode[] {
  return nodes.map((node) => (node.id === id ? { ...node, data: { ...node.data, ...change } } : node));
}

/** Whether an edge from `source` to `target` may be drawn (the engine reports the rest). */
export function canConnect(graph: FlowGraph, connection: { source: string; target: string }): boolean {
  if (connection.source === connection.target) return false;
  const source = graph.nodes.find((node) => node.id === connection.source);
  const target = graph.nodes.find((node) => node.id === connection.target);
  if (source === undefined || target === undefined) return false;
  if (!hasOutput(source.data.kind) || !hasInput(target.data.kind)) return false;
  return !graph.edges.some((edge) => edge.source === connection.source && edge.target === connection.target);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isEditableNode(value: unknown): boolean {
  if (!isObject(value) || typeof value['id'] !== 'string' || !isObject(value['position'])) return false;
  const { type } = value;
  if (type === 'condition') return typeof value['expression'] === 'string';
  if (type === 'hold') return typeof value['candles'] === 'number' || typeof value['until'] === 'string';
  return type === 'and' || type === 'or' || type === 'not' || type === 'buy' || type === 'sell' || type === 'exit';
}

/**
 * A stored graph the editor can open: a valid document, or one of the right format whose nodes and
 * edges it can draw (the editor then shows what is wrong); undefined for anything else.
 */
export function readStoredGraph(graph: unknown): AlgorithmDocument | undefined {
  const validated = validateAlgorithm(graph);
  if (validated.ok) return validated.value;
  if (!isObject(graph) || graph['format'] !== ALGORITHM_FORMAT || graph['version'] !== ALGORITHM_VERSION) return undefined;
  const { nodes, edges } = graph;
  if (!Array.isArray(nodes) || !Array.isArray(edges) || !nodes.every(isEditableNode)) return undefined;
  if (!edges.every((edge) => isObject(edge) && typeof edge['source'] === 'string' && typeof edge['target'] === 'string' && typeof edge['id'] === 'string')) return undefined;
  return graph as unknown as AlgorithmDocument;
}

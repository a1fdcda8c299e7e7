// A stored rule graph (`algorithm_versions.graph`, format vyuha.algorithm) as readable text: one
// line per node with its inputs, and each buy/sell/exit action as the rule it fires on. Reads the
// JSON defensively: a graph that fails validation is still shown as far as it goes.

export interface NodeLine {
  readonly id: string;
  readonly type: string;
  /** What the node says: the expression, the hold, or the gate. */
  readonly text: string;
  /** Ids of the nodes feeding it, in edge order. */
  readonly inputs: readonly string[];
}

export interface AlgorithmText {
  readonly nodes: readonly NodeLine[];
  /** 'BUY when ...' for each action node. */
  readonly rules: readonly string[];
  /** Stop-loss, target and trailing stop, when the document sets them. */
  readonly exits: readonly string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');
/** Deepest nesting rendered; a deeper (or cyclic) graph shows the node id instead. */
const MAX_DEPTH = 12;

function nodeText(node: Json): string {
  switch (node.type) {
    case 'condition': return text(node.expression);
    case 'and': return 'all inputs true (and)';
    case 'or': return 'any input true (or)';
    case 'not': return 'input false (not)';
    case 'hold': return node.until !== undefined ? `hold until ${text(node.until)}` : `hold for ${text(node.candles)} candles`;
    case 'buy': return 'buy';
    case 'sell': return 'sell';
    case 'exit': return 'exit the open position';
    default: return `unknown node type ${text(node.type)}`;
  }
}

function distance(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.value !== 'number') return undefined;
  return value.unit === 'percent' ? `${value.value}%` : `${value.value} points`;
}

class Renderer {
  constructor(private readonly byId: ReadonlyMap<string, Json>, private readonly inputs: ReadonlyMap<string, string[]>) {}

  /** The rule a node computes, as one nested expression. */
  render(id: string, depth: number): string {
    const node = this.byId.get(id);
    if (node === undefined) return `?${id}`;
    if (depth > MAX_DEPTH) return `[${id}]`;
    const parts = (this.inputs.get(id) ?? []).map((input) => this.render(input, depth + 1));
    const only = parts[0] ?? '?';
    switch (node.type) {
      case 'condition': return text(node.expression);
      case 'and': return `(${parts.join(' AND ')})`;
      case 'or': return `(${parts.join(' OR ')})`;
      case 'not': return `NOT ${only}`;
      case 'hold': return node.until !== undefined ? `${only} held until ${text(node.until)}` : `${only} held for ${text(node.candles)} candles`;
      default: return only;
    }
  }
}

/**
 * The readable form of a rule graph.
 * @example algorithmText(graph).rules // ['BUY when crossover(sma(close, 10), sma(close, 20))', 'EXIT when ...']
 */
export function algorithmText(graph: unknown): AlgorithmText {
  const document = isObject(graph) ? graph : {};
  const nodes = Array.isArray(document.nodes) ? document.nodes.filter(isObject) : [];
  const edges = Array.isArray(document.edges) ? document.edges.filter(isObject) : [];
  const byId = new Map(nodes.map((node) => [text(node.id), node]));
  const inputs = new Map<string, string[]>();
  for (const edge of edges) {
    const target = text(edge.target);
    inputs.set(target, [...(inputs.get(target) ?? []), text(edge.source)]);
  }
  const renderer = new Renderer(byId, inputs);
  const rules = nodes
    .filter((node) => node.type === 'buy' || node.type === 'sell' || node.type === 'exit')
    .map((node) => `${text(node.type).toUpperCase()} when ${(inputs.get(text(node.id)) ?? []).map((input) => renderer.render(input, 0)).join(', ') || '(no input)'}`);
  const exitRules = isObject(document.exits) ? document.exits : {};
  const exits = ([['stopLoss', 'Stop-loss'], ['target', 'Target'], ['trailingStop', 'Trailing stop']] as const)
    .flatMap(([key, label]) => {
      const value = distance(exitRules[key]);
      return value === undefined ? [] : [`${label} ${value} from the entry price`];
    });
  return {
    nodes: nodes.map((node) => ({ id: text(node.id), type: text(node.type), text: nodeText(node), inputs: inputs.get(text(node.id)) ?? [] })),
    rules,
    exits,
  };
}

import { MAX_LOOKBACK_BARS } from '../language/builtins';
import type {
  AlgorithmDocument, AlgorithmEdge, AlgorithmError, AlgorithmNode, AlgorithmNodeType, AlgorithmParameter, ExitDistance, ExitRules, NodePosition,
} from './document';
import { ALGORITHM_FORMAT, ALGORITHM_NODE_TYPES, ALGORITHM_VERSION } from './document';
import { GRID_TOLERANCE, wholeCount } from './parameter-grid-values';

/*
 * The shape of a document: every field present, of the right kind, nothing unknown. The graph's
 * meaning (edges, cycles, expressions) is checked afterwards, on a document of the right shape.
 */

type Json = Record<string, unknown>;

const COMMON_NODE_FIELDS = ['id', 'type', 'position', 'label', 'width', 'height'];
const NODE_FIELDS: Readonly<Record<AlgorithmNodeType, readonly string[]>> = {
  condition: [...COMMON_NODE_FIELDS, 'expression'],
  and: COMMON_NODE_FIELDS,
  or: COMMON_NODE_FIELDS,
  not: COMMON_NODE_FIELDS,
  hold: [...COMMON_NODE_FIELDS, 'candles', 'until'],
  buy: COMMON_NODE_FIELDS,
  sell: COMMON_NODE_FIELDS,
  exit: COMMON_NODE_FIELDS,
};
const DOCUMENT_FIELDS = ['format', 'version', 'nodes', 'edges', 'exits', 'parameters', 'constraints'];
const PARAMETER_FIELDS = ['name', 'default', 'from', 'to', 'step'];
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EDGE_FIELDS = ['id', 'source', 'target'];
const EXIT_FIELDS = ['stopLoss', 'target', 'trailingStop'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the text ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Collects shape errors with their paths. */
class ShapeReader {
  readonly errors: AlgorithmError[] = [];

  report(path: string, message: string, nodeId?: string): undefined {
    this.errors.push(nodeId === undefined ? { path, message } : { path, message, nodeId });
    return undefined;
  }

  unknownFields(value: Json, options: { path: string; allowed: readonly string[]; nodeId?: string }): void {
    for (const key of Object.keys(value)) {
      if (!options.allowed.includes(key)) {
        const where = options.path === '' ? key : `${options.path}.${key}`;
        this.report(where, `unknown field (allowed: ${options.allowed.join(', ')})`, options.nodeId);
      }
    }
  }

  text(value: unknown, path: string, nodeId?: string): string | undefined {
    if (typeof value === 'string' && value.trim() !== '') return value;
    return this.report(path, `expected a non-empty text, got ${describe(value)}`, nodeId);
  }

  finite(value: unknown, path: string, nodeId?: string): number | undefined {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    return this.report(path, `expected a number, got ${describe(value)}`, nodeId);
  }

  position(value: unknown, path: string, nodeId?: string): NodePosition | undefined {
    if (!isObject(value)) return this.report(path, `expected an object {"x": number, "y": number}, got ${describe(value)}`, nodeId);
    this.unknownFields(value, { path, allowed: ['x', 'y'], ...(nodeId === undefined ? {} : { nodeId }) });
    const x = this.finite(value['x'], `${path}.x`, nodeId);
    const y = this.finite(value['y'], `${path}.y`, nodeId);
    return x === undefined || y === undefined ? undefined : { x, y };
  }

  node(value: unknown, path: string): AlgorithmNode | undefined {
    if (!isObject(value)) return this.report(path, `expected a node object, got ${describe(value)}`);
    const id = this.text(value['id'], `${path}.id`);
    const type = value['type'];
    if (!ALGORITHM_NODE_TYPES.includes(type as AlgorithmNodeType)) {
      return this.report(`${path}.type`, `expected one of ${ALGORITHM_NODE_TYPES.join(', ')}, got ${describe(type)}`, id);
    }
    const nodeType = type as AlgorithmNodeType;
    const before = this.errors.length;
    this.unknownFields(value, { path, allowed: NODE_FIELDS[nodeType], ...(id === undefined ? {} : { nodeId: id }) });
    const position = this.position(value['position'], `${path}.position`, id);
    const node: Record<string, unknown> = { id, type: nodeType, position };
    if (value['label'] !== undefined) {
      if (typeof value['label'] === 'string') node['label'] = value['label'];
      else this.report(`${path}.label`, `expected a text, got ${describe(value['label'])}`, id);
    }
    for (const size of ['width', 'height'] as const) {
      if (value[size] === undefined) continue;
      const number = this.finite(value[size], `${path}.${size}`, id);
      if (number !== undefined && number < 0) this.report(`${path}.${size}`, 'must not be negative', id);
      node[size] = number;
    }
    if (nodeType === 'condition') node['expression'] = this.text(value['expression'], `${path}.expression`, id);
    if (nodeType === 'hold') this.holdFields({ value, node, path }, id);
    return this.errors.length === before && id !== undefined ? (node as unknown as AlgorithmNode) : undefined;
  }

  private holdFields(target: { value: Json; node: Record<string, unknown>; path: string }, nodeId: string | undefined): void {
    const { value, node, path } = target;
    const hasCandles = value['candles'] !== undefined;
    const hasUntil = value['until'] !== undefined;
    if (hasCandles === hasUntil) {
      this.report(path, 'a hold node needs exactly one of "candles" (a number of bars) and "until" (an expression)', nodeId);
      return;
    }
    if (hasUntil) {
      node['until'] = this.text(value['until'], `${path}.until`, nodeId);
      return;
    }
    const candles = value['candles'];
    if (typeof candles !== 'number' || !Number.isInteger(candles) || candles < 1 || candles > MAX_LOOKBACK_BARS) {
      this.report(`${path}.candles`, `expected a whole number of candles from 1 to ${MAX_LOOKBACK_BARS}, got ${describe(candles)}`, nodeId);
      return;
    }
    node['candles'] = candles;
  }

  edge(value: unknown, path: string): AlgorithmEdge | undefined {
    if (!isObject(value)) return this.report(path, `expected an edge object {"id", "source", "target"}, got ${describe(value)}`);
    const before = this.errors.length;
    this.unknownFields(value, { path, allowed: EDGE_FIELDS });
    const id = this.text(value['id'], `${path}.id`);
    const source = this.text(value['source'], `${path}.source`);
    const target = this.text(value['target'], `${path}.target`);
    if (this.errors.length > before || id === undefined || source === undefined || target === undefined) return undefined;
    return { id, source, target };
  }

  exits(value: unknown): ExitRules | undefined {
    if (!isObject(value)) return this.report('exits', `expected an object, got ${describe(value)}`);
    this.unknownFields(value, { path: 'exits', allowed: EXIT_FIELDS });
    const rules: { -readonly [K in keyof ExitRules]: ExitDistance } = {};
    for (const field of EXIT_FIELDS) {
      if (value[field] === undefined) continue;
      const distance = this.exitDistance(value[field], `exits.${field}`, field !== 'target');
      if (distance !== undefined) rules[field] = distance;
    }
    return rules;
  }

  private exitDistance(value: unknown, path: string, percentUpTo100: boolean): ExitDistance | undefined {
    if (!isObject(value)) return this.report(path, `expected {"unit": "points" | "percent", "value": number}, got ${describe(value)}`);
    this.unknownFields(value, { path, allowed: ['unit', 'value'] });
    const unit = value['unit'];
    if (unit !== 'points' && unit !== 'percent') return this.report(`${path}.unit`, `expected "points" or "percent", got ${describe(unit)}`);
    const amount = this.finite(value['value'], `${path}.value`);
    if (amount === undefined) return undefined;
    if (amount <= 0) return this.report(`${path}.value`, `must be greater than 0, got ${amount}`);
    if (unit === 'percent' && percentUpTo100 && amount >= 100) return this.report(`${path}.value`, `a percent stop must be below 100, got ${amount}`);
    return { unit, value: amount };
  }

  /** One parameter's fields and their ranges; names are checked for repeats by `parameters`. */
  parameter(value: unknown, path: string): AlgorithmParameter | undefined {
    if (!isObject(value)) return this.report(path, `expected {"name", "default", "from", "to", "step"}, got ${describe(value)}`);
    const before = this.errors.length;
    this.unknownFields(value, { path, allowed: PARAMETER_FIELDS });
    const name = this.text(value['name'], `${path}.name`);
    if (name !== undefined && !PARAMETER_NAME.test(name)) {
      const hint = name.startsWith('$') ? ` (write the name without '$': "${name.slice(1)}")` : '';
      this.report(`${path}.name`, `a parameter name is a letter or '_' then letters, digits or '_'; got ${JSON.stringify(name)}${hint}`);
    }
    const fallback = this.finite(value['default'], `${path}.default`);
    const from = this.finite(value['from'], `${path}.from`);
    const to = this.finite(value['to'], `${path}.to`);
    const step = this.finite(value['step'], `${path}.step`);
    if (step !== undefined && step <= 0) this.report(`${path}.step`, `must be greater than 0, got ${step}`);
    if (from !== undefined && to !== undefined && from > to) this.report(`${path}.to`, `must not be below from (${from}), got ${to}`);
    if (this.errors.length > before || name === undefined || fallback === undefined || from === undefined || to === undefined || step === undefined) {
      return undefined;
    }
    if (fallback < from || fallback > to) this.report(`${path}.default`, `must be within from..to (${from}..${to}), got ${fallback}`);
    if (wholeCount((to - from) / step) === undefined) {
      this.report(`${path}.step`, `(to - from) / step must be a whole number (within ${GRID_TOLERANCE}): (${to} - ${from}) / ${step} = ${(to - from) / step}`);
    }
    return this.errors.length > before ? undefined : { name, default: fallback, from, to, step };
  }

  parameters(value: unknown): AlgorithmParameter[] {
    const parameters = readList(this, value, { path: 'parameters', read: (item, path) => this.parameter(item, path) });
    const seen = new Map<string, number>();
    (Array.isArray(value) ? value : []).forEach((item: unknown, index) => {
      const name = isObject(item) ? item['name'] : undefined;
      if (typeof name !== 'string') return;
      const first = seen.get(name);
      if (first === undefined) seen.set(name, index);
      else this.report(`parameters[${index}].name`, `duplicate parameter '${name}' (also parameters[${first}])`);
    });
    return parameters;
  }
}

function readList<T>(reader: Pick<ShapeReader, 'report'>, value: unknown, options: { path: string; read: (item: unknown, path: string) => T | undefined }): T[] {
  if (!Array.isArray(value)) {
    reader.report(options.path, `expected an array, got ${describe(value)}`);
    return [];
  }
  const items: T[] = [];
  value.forEach((item, index) => {
    const read = options.read(item, `${options.path}[${index}]`);
    if (read !== undefined) items.push(read);
  });
  return items;
}

/** Checks the document's shape; on success the value is typed (the graph is not yet checked). */
export function readAlgorithmShape(value: unknown): { document?: AlgorithmDocument; errors: AlgorithmError[] } {
  const reader = new ShapeReader();
  if (!isObject(value)) return { errors: [{ path: '', message: `expected an algorithm object, got ${describe(value)}` }] };
  reader.unknownFields(value, { path: '', allowed: DOCUMENT_FIELDS });
  if (value['format'] !== ALGORITHM_FORMAT) reader.report('format', `expected "${ALGORITHM_FORMAT}", got ${describe(value['format'])}`);
  if (value['version'] !== ALGORITHM_VERSION) {
    reader.report('version', `this engine reads version ${ALGORITHM_VERSION}, got ${describe(value['version'])}`);
  }
  const nodes = readList(reader, value['nodes'], { path: 'nodes', read: (item, path) => reader.node(item, path) });
  const edges = readList(reader, value['edges'], { path: 'edges', read: (item, path) => reader.edge(item, path) });
  const exits = value['exits'] === undefined ? undefined : reader.exits(value['exits']);
  const parameters = value['parameters'] === undefined ? undefined : reader.parameters(value['parameters']);
  const constraints =
    value['constraints'] === undefined
      ? undefined
      : readList(reader, value['constraints'], { path: 'constraints', read: (item, path) => reader.text(item, path) });
  if (reader.errors.length > 0) return { errors: reader.errors };
  const document: AlgorithmDocument = {
    format: ALGORITHM_FORMAT, version: ALGORITHM_VERSION, nodes, edges,
    ...(exits === undefined ? {} : { exits }),
    ...(parameters === undefined ? {} : { parameters }),
    ...(constraints === undefined ? {} : { constraints }),
  };
  return { document, errors: [] };
}

/** Checks a parameter list on its own (as a document's `parameters`); every error at `parameters[i].field`. */
export function readParameterList(value: unknown): { parameters?: AlgorithmParameter[]; errors: AlgorithmError[] } {
  const reader = new ShapeReader();
  const parameters = reader.parameters(value);
  return reader.errors.length > 0 ? { errors: reader.errors } : { parameters, errors: [] };
}

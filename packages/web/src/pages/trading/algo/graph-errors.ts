// Where each problem of the rule graph is shown while the user edits: expression errors (with
// line:column) under the node whose expression they are in, graph errors (inputs, cycles, no
// action) in the errors panel naming the node, exit-rule errors under their field. Every
// expression is checked on its own, so one empty condition does not hide the others' errors
// (the engine's whole-document check stops at the first shape problem). Expressions are checked
// with their `$name`s bound to the declared defaults; the declarations' own problems go under their
// fields (parameters-model.ts), and are checked apart from the graph so a half-typed range never
// hides a graph error.
import { validateAlgorithm, type AlgorithmDocument, type AlgorithmError, type AlgorithmNode } from '@vyuha/engine';
import { checkRuleExpression, parameterScope, placeDeclarationErrors, type DeclarationErrors, type ParameterScope } from './parameters-model';

/** One message as the editor shows it. */
export interface ShownError {
  /** The node it belongs to, when it belongs to one. */
  readonly nodeId?: string;
  /** `1:5: unknown name 'clsoe'` for expressions, the engine's message otherwise. */
  readonly text: string;
}

export interface GraphErrors {
  /** Node id -> its messages, shown under the node. */
  readonly byNode: ReadonlyMap<string, readonly string[]>;
  /** Every message, for the errors panel (node messages included, named by node). */
  readonly all: readonly ShownError[];
  /** Exit-rule field (`stopLoss`, `target`, `trailingStop`) -> its message. */
  readonly exits: ReadonlyMap<string, string>;
  /** The parameters' and constraints' problems by field (also in `all`, without a node). */
  readonly declarations: DeclarationErrors;
}

function expressionOf(node: AlgorithmNode): { field: 'expression' | 'until'; source: string } | undefined {
  if (node.type === 'condition') return { field: 'expression', source: node.expression };
  if (node.type === 'hold' && 'until' in node) return { field: 'until', source: node.until };
  return undefined;
}

function expressionErrors(node: AlgorithmNode, scope: ParameterScope): ShownError[] {
  const expression = expressionOf(node);
  if (expression === undefined) return [];
  if (expression.source.trim() === '') {
    const what = expression.field === 'until' ? 'the condition that ends the hold' : 'a condition';
    return [{ nodeId: node.id, text: `Write ${what}, e.g. crossover(ema(close, 9), ema(close, 21))` }];
  }
  return checkRuleExpression(expression.source, scope).map((text) => ({ nodeId: node.id, text }));
}

/** Messages the per-expression check already gives (so they are not shown twice). */
function isExpressionError(error: AlgorithmError): boolean {
  return /\.(expression|until)$/.test(error.path);
}

function exitField(error: AlgorithmError): string | undefined {
  return /^exits\.(stopLoss|target|trailingStop)/.exec(error.path)?.[1];
}

/**
 * Every problem of the editor's document, placed.
 * @example placeErrors(doc).byNode.get('condition-1') // ["1:1: unknown name 'clsoe'; did you mean 'close'?"]
 */
export function placeErrors(document: AlgorithmDocument): GraphErrors {
  const parameters = document.parameters ?? [];
  const scope = parameterScope(parameters);
  const shown: ShownError[] = document.nodes.flatMap((node) => expressionErrors(node, scope));
  const exits = new Map<string, string>();
  const { parameters: _parameters, constraints, ...graph } = document;
  const validated = validateAlgorithm(graph);
  if (!validated.ok) {
    for (const error of validated.error) {
      if (isExpressionError(error)) continue;
      const field = exitField(error);
      if (field !== undefined) {
        exits.set(field, error.message);
        continue;
      }
      shown.push(error.nodeId === undefined ? { text: error.message } : { nodeId: error.nodeId, text: error.message });
    }
  }
  const declarations = placeDeclarationErrors({ parameters, constraints: constraints ?? [] });
  shown.push(...declarations.all.map((text) => ({ text })));
  const byNode = new Map<string, string[]>();
  for (const error of shown) {
    if (error.nodeId === undefined) continue;
    byNode.set(error.nodeId, [...(byNode.get(error.nodeId) ?? []), error.text]);
  }
  return { byNode, all: shown, exits, declarations };
}

/** The number of problems that block a save. */
export function errorCount(errors: GraphErrors): number {
  return errors.all.length + errors.exits.size;
}

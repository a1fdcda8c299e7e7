/**
 * A request's variables measured before graphql-js coerces them: coercion and the SQL compiler
 * recurse through nested input objects, so a 1 MB variables object nested 100,000 deep would
 * overflow the stack, and half a million tiny values would cost far more than the request is
 * worth. The walk here is iterative (a stack of its own) and stops at the first limit passed;
 * the error names the path of the value where it stopped.
 */
import type { GraphqlError } from '../types';
import { graphqlError } from './errors';

interface Pending {
  readonly value: unknown;
  readonly depth: number;
  /** Index of the parent in `seen` (-1 for the variables object) and the key under it. */
  readonly parent: number;
  readonly key: string | number;
}

/**
 * The first limit the variables pass, as a `validation-failed` error naming the path; undefined
 * when they are within both.
 * @example checkVariables({ a: [[1]] }, { maxDepth: 2, maxValues: 100 })?.message
 *   -> 'variables are nested more than 2 deep at $.variables.a[0][0]'
 */
export function checkVariables(variables: unknown, limits: { readonly maxDepth: number; readonly maxValues: number }): GraphqlError | undefined {
  if (typeof variables !== 'object' || variables === null) return undefined;
  const seen: Pending[] = [];
  const stack: Pending[] = [];
  const tooMany = (index: number): GraphqlError =>
    graphqlError('validation-failed', `variables hold more than ${limits.maxValues} values (stopped at ${pathOf(seen, index)})`, '$');
  /** Queues the children of `value`; false when that passes the value limit (checked before queueing a long list). */
  const push = (value: unknown, parent: { depth: number; index: number }): boolean => {
    if (typeof value !== 'object' || value === null) return true;
    const keys: (string | number)[] = Array.isArray(value) ? [] : Object.keys(value);
    const count = Array.isArray(value) ? value.length : keys.length;
    if (seen.length + stack.length + count > limits.maxValues) return false;
    for (let at = 0; at < count; at += 1) {
      const key = Array.isArray(value) ? at : (keys[at] as string);
      stack.push({ value: (value as Record<string | number, unknown>)[key], depth: parent.depth + 1, parent: parent.index, key });
    }
    return true;
  };
  if (!push(variables, { depth: 0, index: -1 })) return tooMany(-1);
  while (stack.length > 0) {
    const item = stack.pop() as Pending;
    const index = seen.length;
    seen.push(item);
    if (item.depth > limits.maxDepth) {
      return graphqlError('validation-failed', `variables are nested more than ${limits.maxDepth} deep at ${pathOf(seen, index)}`, '$');
    }
    if (!push(item.value, { depth: item.depth, index })) return tooMany(index);
  }
  return undefined;
}

function pathOf(seen: readonly Pending[], index: number): string {
  const keys: (string | number)[] = [];
  for (let at = index; at >= 0; at = (seen[at] as Pending).parent) keys.push((seen[at] as Pending).key);
  return `$.variables${keys.reverse().map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('')}`;
}

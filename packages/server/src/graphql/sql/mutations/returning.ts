/**
 * The SELECT that ends every mutation statement: the response JSON of the rows the
 * data-modifying CTE `m` returned (`affected_rows`, `returning` under the role's select
 * permission, or the single row of `_one`/`_by_pk`) and whether every row passes the
 * permission check. A failed check makes the executor roll the whole request back.
 */
import { getNamedType, type GraphQLObjectType } from 'graphql';
import type { CatalogueTable } from '../../catalogue';
import type { PermissionFilter } from '../../metadata/types';
import { fieldOf, fieldRole } from '../../schema/field-roles';
import { nameLiteral, nextAlias, type CompileContext } from '../context';
import { subFields, type CollectedField } from '../fields';
import { compileRowObject, jsonObject } from '../select';
import { compileBoolExp, permissionFilter } from '../where';

/** The name of the data-modifying CTE. */
export const MUTATION_CTE = 'm';
/** Column an upsert adds to RETURNING: true for inserted rows, false for updated ones. */
export const INSERTED_FLAG = '__vyuha_inserted';

export interface MutationOutput {
  /** `response`: `<t>_mutation_response`; `single`: the row type (or null). */
  readonly shape: 'response' | 'single';
  readonly type: GraphQLObjectType;
  readonly field: CollectedField;
}

/** The permission check of the mutated rows: one filter, or insert/update filters for an upsert. */
export type MutationCheck =
  | { readonly kind: 'none' }
  | { readonly kind: 'filter'; readonly filter: PermissionFilter }
  | { readonly kind: 'upsert'; readonly insert: PermissionFilter; readonly update: PermissionFilter };

function isTrivial(filter: PermissionFilter): boolean {
  return Object.keys(filter).length === 0;
}

function checkExpression(context: CompileContext, input: { table: CatalogueTable; check: MutationCheck }): string {
  const { table, check } = input;
  if (check.kind === 'none') return 'true';
  if (check.kind === 'filter' && isTrivial(check.filter)) return 'true';
  if (check.kind === 'upsert' && isTrivial(check.insert) && isTrivial(check.update)) return 'true';
  const alias = nextAlias(context);
  const compile = (filter: PermissionFilter) => compileBoolExp(context, { table, alias, exp: filter, mode: 'permission' });
  const condition = check.kind === 'filter'
    ? compile(check.filter)
    : `CASE WHEN ${alias}."${INSERTED_FLAG}" THEN (${compile(check.insert)}) ELSE (${compile(check.update)}) END`;
  return `(SELECT coalesce(bool_and(${condition}), true) FROM ${MUTATION_CTE} ${alias})`;
}

function returnedRows(context: CompileContext, input: { table: CatalogueTable; type: GraphQLObjectType; field: CollectedField; single: boolean }): string {
  const alias = nextAlias(context);
  const object = compileRowObject(context, { type: input.type, table: input.table, alias, fields: subFields(input.field, context) });
  const where = permissionFilter(context, { table: input.table, alias });
  if (input.single) return `(SELECT ${object} FROM ${MUTATION_CTE} ${alias} WHERE ${where} LIMIT 1)`;
  return `(SELECT coalesce(json_agg(${object}), '[]'::json) FROM ${MUTATION_CTE} ${alias} WHERE ${where})`;
}

function responseObject(context: CompileContext, input: { table: CatalogueTable; output: MutationOutput }): string {
  const { table, output } = input;
  const pairs: [string, string][] = [];
  for (const field of subFields(output.field, context)) {
    if (field.name === '__typename') {
      pairs.push([field.responseKey, nameLiteral(output.type.name)]);
      continue;
    }
    const definition = fieldOf(output.type, field.name);
    const role = fieldRole(definition);
    if (role?.kind === 'affected_rows') pairs.push([field.responseKey, `(SELECT count(*) FROM ${MUTATION_CTE})`]);
    else if (role?.kind === 'returning') {
      const type = getNamedType(definition.type) as GraphQLObjectType;
      pairs.push([field.responseKey, returnedRows(context, { table, type, field, single: false })]);
    } else throw new Error(`internal: ${output.type.name}.${field.name} has no compiler role`);
  }
  return jsonObject(pairs);
}

/**
 * `WITH m AS (<modification>), r AS (SELECT <json>::text, <check passed>) SELECT <json or NULL>,
 * <check passed>, <json length>`: the JSON is withheld over the response ceiling
 * (execute/response-ceiling.ts), and the executor rolls the request back then.
 */
export function mutationStatement(context: CompileContext, input: { table: CatalogueTable; modification: string; output: MutationOutput; check: MutationCheck }): string {
  const { table, output } = input;
  const json = output.shape === 'single'
    ? returnedRows(context, { table, type: output.type, field: output.field, single: true })
    : responseObject(context, { table, output });
  const check = checkExpression(context, { table, check: input.check });
  const maxBytes = context.limits.maxResponseBytes;
  return `WITH ${MUTATION_CTE} AS (${input.modification}), r AS MATERIALIZED (SELECT (${json})::text AS result, ${check} AS check_passed)`
    + ` SELECT CASE WHEN octet_length(r.result) <= ${maxBytes} THEN r.result END AS result, r.check_passed, octet_length(r.result)::bigint AS n FROM r`;
}

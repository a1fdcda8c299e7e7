/**
 * A mutation root field -> its statements (one, or one per item of `update_<t>_many`), each
 * returning one row: the field's JSON text and whether the permission check passed.
 */
import { getNamedType, type GraphQLObjectType } from 'graphql';
import { fieldOf, fieldRole } from '../../schema/field-roles';
import { finishStatement, statementContext, type CompileBase, type CompiledStatement } from '../context';
import { fieldArguments, type CollectedField } from '../fields';
import { compileInsert } from './insert';
import type { MutationOutput } from './returning';
import { compileDelete, compileUpdate } from './update';

export interface CompiledMutation {
  readonly responseKey: string;
  readonly statements: readonly CompiledStatement[];
  /** `update_<t>_many`: the results form a JSON array. */
  readonly list: boolean;
  /** Path of constraint errors (Hasura names the objects argument of inserts). */
  readonly errorPath: string;
}

type Args = Readonly<Record<string, unknown>>;

/** Compiles one mutation root field of the role's schema. */
export function compileMutationField(base: CompileBase, input: { rootType: GraphQLObjectType; field: CollectedField }): CompiledMutation {
  const { field } = input;
  const definition = fieldOf(input.rootType, field.name);
  const role = fieldRole(definition);
  if (!role || !('table' in role)) throw new Error(`internal: ${field.name} is not a table mutation`);
  const table = base.catalogue.tables.get(role.table);
  if (!table) throw new Error(`internal: table ${role.table} missing`);
  const args = fieldArguments(definition, field, base.variables);
  const type = getNamedType(definition.type) as GraphQLObjectType;
  const response: MutationOutput = { shape: 'response', type, field };
  const single: MutationOutput = { shape: 'single', type, field };
  const path = `$.selectionSet.${field.responseKey}`;
  const one = (compile: (context: ReturnType<typeof statementContext>) => string, errorPath = path): CompiledMutation => {
    const context = statementContext(base);
    return { responseKey: field.responseKey, statements: [finishStatement(context, compile(context))], list: false, errorPath };
  };
  const onConflict = args.on_conflict as Parameters<typeof compileInsert>[1]['onConflict'] | undefined;
  switch (role.kind) {
    case 'insert':
      return one((context) => compileInsert(context, { table, rows: args.objects as Args[], onConflict, output: response }), `${path}.args.objects`);
    case 'insert_one':
      return one((context) => compileInsert(context, { table, rows: [args.object as Args], onConflict, output: single }), `${path}.args.object`);
    case 'update':
      return one((context) => compileUpdate(context, { table, args, keys: undefined, output: response }));
    case 'update_by_pk':
      return one((context) => compileUpdate(context, { table, args, keys: args.pk_columns as Args, output: single }));
    case 'delete':
      return one((context) => compileDelete(context, { table, args, keys: undefined, output: response }));
    case 'delete_by_pk':
      return one((context) => compileDelete(context, { table, args: {}, keys: args, output: single }));
    case 'update_many': {
      const statements = (args.updates as Args[]).map((update) => {
        const context = statementContext(base);
        return finishStatement(context, compileUpdate(context, { table, args: update, keys: undefined, output: response }));
      });
      return { responseKey: field.responseKey, statements, list: true, errorPath: path };
    }
    default:
      throw new Error(`internal: ${field.name} is not a mutation`);
  }
}

/**
 * How many items a list field of a role's schema can hold at most, for the cost limit
 * (document-measure.ts): a table's rows are capped by the role's row limit or the engine-wide
 * `maxRowsPerSelect`; an introspection list by what the schema itself holds (its number of
 * types, the most fields one type has, ...). Computed once per schema and kept beside it.
 */
import {
  getNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType,
  type GraphQLField, type GraphQLSchema,
} from 'graphql';
import type { RoleModel } from '../schema/role-model';
import { fieldRole } from '../schema/field-roles';

export interface ListWeights {
  /** Rows a list of this object type may hold (table types), or undefined for other types. */
  rowCap(typeName: string): number | undefined;
  /**
   * Items of an introspection list `<parent type>.<field>` (`__Schema.types`, `__Type.fields`, ...):
   * the most one object holds, or, for objects that are themselves every item of an enclosing
   * enumeration (`__schema { types { fields } }`), the average, so that the whole enumeration
   * counts exactly the items the schema has.
   */
  introspection(parentType: string, field: string, enumerated: boolean): number | undefined;
}

const cache = new WeakMap<GraphQLSchema, ListWeights>();

/** The weights of a role's schema (cached per schema object). */
export function listWeightsOf(schema: GraphQLSchema, input: { model: RoleModel; maxRowsPerSelect: number }): ListWeights {
  let weights = cache.get(schema);
  if (!weights) {
    weights = buildWeights(schema, input);
    cache.set(schema, weights);
  }
  return weights;
}

function buildWeights(schema: GraphQLSchema, input: { model: RoleModel; maxRowsPerSelect: number }): ListWeights {
  const caps = new Map<string, number>();
  const root = schema.getQueryType();
  for (const field of Object.values(root?.getFields() ?? {})) {
    const role = fieldRole(field as GraphQLField<unknown, unknown>);
    if (!role || role.kind !== 'select') continue;
    const limit = input.model.tables.get(role.table)?.select?.limit;
    caps.set(getNamedType(field.type).name, Math.min(limit ?? input.maxRowsPerSelect, input.maxRowsPerSelect));
  }
  const counts = introspectionCounts(schema);
  return {
    rowCap: (typeName) => caps.get(typeName),
    introspection: (parentType, field, enumerated) => {
      const count = counts.get(`${parentType}.${field}`);
      return count === undefined ? undefined : enumerated ? count.average : count.most;
    },
  };
}

interface ListCount {
  /** The most items one object's list holds. */
  readonly most: number;
  /** Items per object, over every object of the parent type. */
  readonly average: number;
}

/** Per introspection list: the most items one object holds and the average over all objects. */
function introspectionCounts(schema: GraphQLSchema): Map<string, ListCount> {
  const tally = new Map<string, { most: number; total: number; objects: number }>();
  const add = (key: string, items: number): void => {
    const entry = tally.get(key) ?? { most: 0, total: 0, objects: 0 };
    entry.most = Math.max(entry.most, items);
    entry.total += items;
    entry.objects += 1;
    tally.set(key, entry);
  };
  const types = Object.values(schema.getTypeMap());
  for (const type of types) {
    const fields = isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [];
    add('__Type.fields', fields.length);
    for (const field of fields) add('__Field.args', field.args.length);
    add('__Type.interfaces', isObjectType(type) || isInterfaceType(type) ? type.getInterfaces().length : 0);
    add('__Type.possibleTypes', isInterfaceType(type) || isUnionType(type) ? schema.getPossibleTypes(type).length : 0);
    add('__Type.inputFields', isInputObjectType(type) ? Object.keys(type.getFields()).length : 0);
    add('__Type.enumValues', isEnumType(type) ? type.getValues().length : 0);
  }
  const directives = schema.getDirectives();
  for (const directive of directives) add('__Directive.args', directive.args.length);
  add('__Schema.types', types.length);
  add('__Schema.directives', directives.length);
  const counts = new Map<string, ListCount>();
  for (const [key, entry] of tally) counts.set(key, { most: Math.max(1, entry.most), average: entry.objects === 0 ? 0 : entry.total / entry.objects });
  return counts;
}

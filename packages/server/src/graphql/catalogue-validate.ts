/**
 * Startup validation of the metadata against the catalogue: every table, column, relationship,
 * permission filter and preset must name something that exists. A mistake fails the server start
 * with the table, role and path named, rather than a request at run time.
 */
import type { Catalogue, CatalogueTable } from './catalogue';
import type { ColumnSelection, PermissionFilter, RolePermissions } from './metadata/types';
import { operatorsForScalar, type ComparisonOperator } from './sql/operators';

/** Throws an Error naming table, role and path at the first inconsistency. */
export function validateMetadata(catalogue: Catalogue): void {
  for (const table of catalogue.tables.values()) {
    validateTableShape(catalogue, table);
    for (const [role, permissions] of Object.entries(table.declaration.permissions)) {
      if (permissions) validateRole(catalogue, { table, role, permissions });
    }
  }
}

function fail(table: CatalogueTable, where: string, message: string): never {
  throw new Error(`graphql metadata: table "${table.name}"${where}: ${message}`);
}

function validateTableShape(catalogue: Catalogue, table: CatalogueTable): void {
  for (const column of [...table.hidden, ...table.primaryKey]) {
    if (!table.columns.has(column)) fail(table, '', `unknown column "${column}"`);
  }
  const relationships = [...table.objectRelationships, ...table.arrayRelationships];
  for (const [name, relationship] of relationships) {
    if (table.columns.has(name)) fail(table, `, relationship "${name}"`, 'has the name of a column');
    const remote = catalogue.tables.get(relationship.table);
    if (!remote) fail(table, `, relationship "${name}"`, `unknown remote table "${relationship.table}"`);
    const pairs = Object.entries(relationship.columns);
    if (pairs.length === 0) fail(table, `, relationship "${name}"`, 'has no join columns');
    for (const [local, remoteColumn] of pairs) {
      if (!table.columns.has(local)) fail(table, `, relationship "${name}"`, `unknown column "${local}"`);
      if (!remote.columns.has(remoteColumn)) fail(table, `, relationship "${name}"`, `unknown column "${remoteColumn}" of "${remote.name}"`);
    }
  }
}

interface RoleScope {
  readonly table: CatalogueTable;
  readonly role: string;
  readonly permissions: RolePermissions;
}

function validateRole(catalogue: Catalogue, scope: RoleScope): void {
  const { table, role, permissions } = scope;
  const where = (operation: string): string => `, role "${role}", ${operation}`;
  const checkColumns = (operation: string, columns: ColumnSelection | readonly string[]): void => {
    if (columns === 'all') return;
    for (const column of columns) {
      if (!table.columns.has(column)) fail(table, where(operation), `unknown column "${column}"`);
      if (table.hidden.has(column)) fail(table, where(operation), `column "${column}" is hidden`);
    }
  };
  const checkFilter = (operation: string, filter: PermissionFilter | undefined): void => {
    if (filter) validateFilter(catalogue, { table, path: `${role}.${operation}`, filter });
  };
  if (permissions.select) {
    checkColumns('select.columns', permissions.select.columns);
    checkFilter('select.filter', permissions.select.filter);
    for (const [column, mask] of Object.entries(permissions.select.masked ?? {})) {
      const allowed = permissions.select.columns === 'all' || permissions.select.columns.includes(column);
      if (!allowed) fail(table, where('select.masked'), `masked column "${column}" is not in the select columns`);
      checkFilter(`select.masked.${column}.unlessRow`, mask.unlessRow);
    }
  }
  if (permissions.insert) {
    checkColumns('insert.columns', permissions.insert.columns);
    checkColumns('insert.presets', Object.keys(permissions.insert.presets ?? {}));
    checkFilter('insert.check', permissions.insert.check);
  }
  if (permissions.update) {
    checkColumns('update.columns', permissions.update.columns);
    checkColumns('update.presets', Object.keys(permissions.update.presets ?? {}));
    checkFilter('update.filter', permissions.update.filter);
    checkFilter('update.check', permissions.update.check);
  }
  if (permissions.delete) checkFilter('delete.filter', permissions.delete.filter);
}

interface FilterScope {
  readonly table: CatalogueTable;
  readonly path: string;
  readonly filter: unknown;
}

/** Resolves `_exists._table`: a declared GraphQL table name, or Hasura's `{schema, name}`. */
export function resolveExistsTable(catalogue: Catalogue, reference: unknown): CatalogueTable | undefined {
  if (typeof reference === 'string') return catalogue.tables.get(reference);
  if (reference && typeof reference === 'object') {
    const { schema, name } = reference as { schema?: unknown; name?: unknown };
    for (const table of catalogue.tables.values()) {
      if (table.sqlName === name && table.sqlSchema === (schema ?? 'public')) return table;
    }
  }
  return undefined;
}

function validateFilter(catalogue: Catalogue, scope: FilterScope): void {
  const { table, path, filter } = scope;
  const bad: (message: string) => never = (message) => fail(table, ` (filter ${path})`, message);
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) bad('expected an object');
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    const here = `${path}.${key}`;
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(value)) bad(`${key} expects an array`);
      (value as unknown[]).forEach((item, index) => validateFilter(catalogue, { table, path: `${here}[${index}]`, filter: item }));
    } else if (key === '_not') {
      validateFilter(catalogue, { table, path: here, filter: value });
    } else if (key === '_exists') {
      const { _table: reference, _where: inner } = (value ?? {}) as { _table?: unknown; _where?: unknown };
      const remote = resolveExistsTable(catalogue, reference);
      if (!remote) bad(`${here}: unknown table ${JSON.stringify(reference)}`);
      validateFilter(catalogue, { table: remote, path: `${here}._where`, filter: inner ?? {} });
    } else if (table.columns.has(key)) {
      validateComparison({ table, path: here, filter: value }, key);
    } else {
      const relationship = table.objectRelationships.get(key) ?? table.arrayRelationships.get(key);
      const remote = relationship && catalogue.tables.get(relationship.table);
      if (!remote) bad(`unknown column or relationship "${key}" at ${here}`);
      validateFilter(catalogue, { table: remote, path: here, filter: value });
    }
  }
}

function validateComparison(scope: FilterScope, column: string): void {
  const { table, path, filter } = scope;
  const scalar = table.columns.get(column)?.scalar ?? 'String';
  const allowed = operatorsForScalar(scalar);
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) fail(table, ` (filter ${path})`, 'expected an operator object');
  for (const operator of Object.keys(filter as object)) {
    if (!allowed.includes(operator as ComparisonOperator)) {
      fail(table, ` (filter ${path})`, `unknown operator "${operator}" for column "${column}" of type ${scalar}`);
    }
  }
}

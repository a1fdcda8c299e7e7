/**
 * What one role may do with each table, resolved against the catalogue: concrete column lists
 * (hidden columns removed, `'all'` expanded, preset and generated columns removed from writes).
 * The schema builder and the compiler both read this, so what a role can name in a query is
 * exactly what the compiler lets it read.
 */
import type { Catalogue, CatalogueTable } from '../catalogue';
import type { ColumnMask, ColumnPresets, ColumnSelection, PermissionFilter } from '../metadata/types';

export interface RoleSelect {
  readonly filter: PermissionFilter;
  readonly columns: readonly string[];
  readonly limit: number | undefined;
  readonly allowAggregations: boolean;
  readonly masked: ReadonlyMap<string, ColumnMask>;
}

export interface RoleInsert {
  readonly check: PermissionFilter;
  /** Columns the caller may set (presets excluded). */
  readonly columns: readonly string[];
  readonly presets: ColumnPresets;
  readonly allowUpsert: boolean;
}

export interface RoleUpdate {
  readonly filter: PermissionFilter;
  readonly check: PermissionFilter | undefined;
  readonly columns: readonly string[];
  readonly presets: ColumnPresets;
}

export interface RoleTable {
  readonly table: CatalogueTable;
  readonly select: RoleSelect | undefined;
  readonly insert: RoleInsert | undefined;
  readonly update: RoleUpdate | undefined;
  readonly delete: { readonly filter: PermissionFilter } | undefined;
}

export interface RoleModel {
  /** The role name, or `admin` for the admin secret. */
  readonly key: string;
  readonly admin: boolean;
  /** Tables the role has at least one permission on. */
  readonly tables: ReadonlyMap<string, RoleTable>;
}

/** The cache key of a session's role model. */
export function roleKey(session: { readonly admin: boolean; readonly role: string }): string {
  return session.admin ? '@admin' : session.role;
}

function visibleColumns(table: CatalogueTable, selection: ColumnSelection): string[] {
  const all = [...table.columns.keys()].filter((column) => !table.hidden.has(column));
  if (selection === 'all') return all;
  return all.filter((column) => selection.includes(column));
}

function writableColumns(table: CatalogueTable, selection: ColumnSelection, presets: ColumnPresets): string[] {
  return visibleColumns(table, selection).filter((column) => !table.columns.get(column)?.generated && !(column in presets));
}

function adminTable(table: CatalogueTable): RoleTable {
  const columns = visibleColumns(table, 'all');
  const writable = table.isView ? undefined : writableColumns(table, 'all', {});
  return {
    table,
    select: { filter: {}, columns, limit: undefined, allowAggregations: true, masked: new Map() },
    insert: writable ? { check: {}, columns: writable, presets: {}, allowUpsert: true } : undefined,
    update: writable ? { filter: {}, check: undefined, columns: writable, presets: {} } : undefined,
    delete: writable ? { filter: {} } : undefined,
  };
}

function roleTable(table: CatalogueTable, role: string): RoleTable | undefined {
  const permissions = table.declaration.permissions[role];
  if (!permissions) return undefined;
  const { select, insert, update } = permissions;
  return {
    table,
    select: select && {
      filter: select.filter,
      columns: visibleColumns(table, select.columns),
      limit: select.limit,
      allowAggregations: select.allowAggregations ?? false,
      masked: new Map(Object.entries(select.masked ?? {})),
    },
    insert: insert && {
      check: insert.check,
      columns: writableColumns(table, insert.columns, insert.presets ?? {}),
      presets: insert.presets ?? {},
      allowUpsert: insert.allowUpsert ?? true,
    },
    update: update && {
      filter: update.filter,
      check: update.check,
      columns: writableColumns(table, update.columns, update.presets ?? {}),
      presets: update.presets ?? {},
    },
    delete: permissions.delete && { filter: permissions.delete.filter },
  };
}

/** The role model of a role name, or of the admin secret (every table, every column but hidden ones). */
export function buildRoleModel(catalogue: Catalogue, session: { readonly admin: boolean; readonly role: string }): RoleModel {
  const tables = new Map<string, RoleTable>();
  for (const table of catalogue.tables.values()) {
    const resolved = session.admin ? adminTable(table) : roleTable(table, session.role);
    if (resolved) tables.set(table.name, resolved);
  }
  return { key: roleKey(session), admin: session.admin, tables };
}

/** The select permission of a table for the role, when the role may read it (and it has columns). */
export function selectableTable(model: RoleModel, tableName: string): RoleSelect | undefined {
  const select = model.tables.get(tableName)?.select;
  return select && select.columns.length > 0 ? select : undefined;
}

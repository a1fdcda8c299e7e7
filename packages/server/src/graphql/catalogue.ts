/**
 * The database catalogue of the declared tables and views, read once at engine start from
 * pg_catalog: columns with their SQL types and Hasura scalar names, keys and unique constraints.
 * The schema and the SQL compiler take every type and key from here, never from guesses.
 */
import type pg from 'pg';
import type { Metadata, RelationshipDeclaration, TableDeclaration } from './metadata/types';

export interface CatalogueColumn {
  readonly name: string;
  /** The type for casts, without type modifiers: `uuid`, `text`, `timestamp with time zone`, `text[]`. */
  readonly sqlType: string;
  /** Hasura's scalar name: `uuid`, `String`, `Int`, `bigint`, `timestamptz`, `jsonb`, `_text`... */
  readonly scalar: string;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  /** GENERATED ALWAYS (identity or stored expression): never written by INSERT or UPDATE. */
  readonly generated: boolean;
}

export interface UniqueConstraint {
  readonly name: string;
  readonly columns: readonly string[];
}

export interface CatalogueTable {
  /** GraphQL name (the declaration's `name`). */
  readonly name: string;
  readonly sqlSchema: string;
  readonly sqlName: string;
  /** `"schema"."table"`, quoted. */
  readonly qualified: string;
  readonly isView: boolean;
  /** Every column in table order, hidden ones included (the role models drop those). */
  readonly columns: ReadonlyMap<string, CatalogueColumn>;
  readonly primaryKey: readonly string[];
  /** Primary key and unique constraints (targets of `on_conflict`). */
  readonly uniqueConstraints: readonly UniqueConstraint[];
  readonly declaration: TableDeclaration;
  readonly objectRelationships: ReadonlyMap<string, RelationshipDeclaration>;
  readonly arrayRelationships: ReadonlyMap<string, RelationshipDeclaration>;
  readonly hidden: ReadonlySet<string>;
}

export interface Catalogue {
  readonly tables: ReadonlyMap<string, CatalogueTable>;
}

/** Quotes an SQL identifier (`"a""b"`). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const SCALAR_BY_TYPNAME: Readonly<Record<string, string>> = {
  int2: 'smallint',
  int4: 'Int',
  int8: 'bigint',
  float4: 'real',
  float8: 'float8',
  text: 'String',
  varchar: 'String',
  bpchar: 'String',
  name: 'String',
  bool: 'Boolean',
};

/** Hasura's scalar name for a PostgreSQL type name (`pg_type.typname`). */
export function scalarForTypname(typname: string): string {
  return SCALAR_BY_TYPNAME[typname] ?? typname;
}

interface ColumnRow {
  schema: string;
  relation: string;
  relkind: string;
  column: string;
  sql_type: string;
  typname: string;
  not_null: boolean;
  has_default: boolean;
  identity: string;
  generated: string;
}

interface ConstraintRow {
  schema: string;
  relation: string;
  name: string;
  kind: string;
  columns: string[];
}

const COLUMNS_SQL = `
SELECT n.nspname AS schema, c.relname AS relation, c.relkind::text AS relkind, a.attname::text AS column,
       format_type(a.atttypid, NULL) AS sql_type, t.typname::text AS typname,
       a.attnotnull AS not_null, a.atthasdef AS has_default,
       a.attidentity::text AS identity, a.attgenerated::text AS generated
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
WHERE (n.nspname::text, c.relname::text) IN (SELECT * FROM unnest($1::text[], $2::text[]))
  AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
ORDER BY n.nspname, c.relname, a.attnum`;

const CONSTRAINTS_SQL = `
SELECT n.nspname AS schema, c.relname AS relation, con.conname::text AS name, con.contype::text AS kind,
       array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE con.contype IN ('p', 'u')
  AND (n.nspname::text, c.relname::text) IN (SELECT * FROM unnest($1::text[], $2::text[]))
ORDER BY con.contype, con.conname`;

/** Reads the catalogue of every declared table; a declared table missing from the database is an error. */
export async function readCatalogue(pool: pg.Pool, metadata: Metadata): Promise<Catalogue> {
  const schemas = metadata.tables.map((table) => table.sqlSchema ?? 'public');
  const names = metadata.tables.map((table) => table.sqlName ?? table.name);
  const [columns, constraints] = await Promise.all([
    pool.query<ColumnRow>(COLUMNS_SQL, [schemas, names]),
    pool.query<ConstraintRow>(CONSTRAINTS_SQL, [schemas, names]),
  ]);
  const tables = new Map<string, CatalogueTable>();
  for (const declaration of metadata.tables) {
    if (tables.has(declaration.name)) throw new Error(`graphql metadata: table "${declaration.name}" is declared twice`);
    tables.set(declaration.name, buildTable(declaration, columns.rows, constraints.rows));
  }
  return { tables };
}

function buildTable(declaration: TableDeclaration, columnRows: readonly ColumnRow[], constraintRows: readonly ConstraintRow[]): CatalogueTable {
  const sqlSchema = declaration.sqlSchema ?? 'public';
  const sqlName = declaration.sqlName ?? declaration.name;
  const own = columnRows.filter((row) => row.schema === sqlSchema && row.relation === sqlName);
  if (own.length === 0) {
    throw new Error(`graphql metadata: table "${declaration.name}": ${sqlSchema}.${sqlName} does not exist in the database`);
  }
  const isView = own[0]?.relkind === 'v' || own[0]?.relkind === 'm';
  const columns = new Map<string, CatalogueColumn>();
  for (const row of own) {
    columns.set(row.column, {
      name: row.column,
      sqlType: row.sql_type,
      scalar: scalarForTypname(row.typname),
      nullable: !row.not_null,
      hasDefault: row.has_default || row.identity !== '',
      generated: row.identity === 'a' || row.generated !== '',
    });
  }
  const uniqueConstraints = constraintRows
    .filter((row) => row.schema === sqlSchema && row.relation === sqlName)
    .map((row) => ({ name: row.name, columns: row.columns, kind: row.kind }));
  const primaryKey = declaration.primaryKey ?? uniqueConstraints.find((constraint) => constraint.kind === 'p')?.columns ?? [];
  return {
    name: declaration.name,
    sqlSchema,
    sqlName,
    qualified: `${quoteIdentifier(sqlSchema)}.${quoteIdentifier(sqlName)}`,
    isView,
    columns,
    primaryKey,
    uniqueConstraints: uniqueConstraints.map(({ name, columns: constraintColumns }) => ({ name, columns: constraintColumns })),
    declaration,
    objectRelationships: new Map(Object.entries(declaration.objectRelationships ?? {})),
    arrayRelationships: new Map(Object.entries(declaration.arrayRelationships ?? {})),
    hidden: new Set(declaration.hiddenColumns ?? []),
  };
}

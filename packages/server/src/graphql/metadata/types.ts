/**
 * The GraphQL metadata: one typed declaration of every exposed table, its relationships and
 * what each role may do with it, plus the actions (custom root fields). The schema, the SQL
 * compiler, the permission-matrix test and the docs are all generated from this one place.
 *
 * Permission filters use Hasura's boolean-expression syntax over the table's columns and
 * relationships: `{ user_id: { _eq: 'X-Hasura-User-Id' } }`, `{ _or: [...] }`,
 * `{ user: { managers: { manager_id: { _eq: 'X-Hasura-Actor-Id' } } } }`,
 * `{ _exists: { _table: 'managers', _where: {...} } }`. A string value that starts with
 * `X-Hasura-` (any case) is a session variable, read from the request's session; every other
 * value is a literal.
 */
import type { GraphqlSession } from '../types';

/** A Hasura boolean expression with session-variable references (see the file comment). */
export type PermissionFilter = Readonly<Record<string, unknown>>;

/** A column list, or every column the catalogue has (minus the table's `hiddenColumns`). */
export type ColumnSelection = readonly string[] | 'all';

export interface RelationshipDeclaration {
  /** The remote table's GraphQL name (a declared table). */
  readonly table: string;
  /** Local column -> remote column; the join is the AND of the pairs. */
  readonly columns: Readonly<Record<string, string>>;
}

/** How a column is shown to a role that may not read it in clear. */
export interface ColumnMask {
  /** `name`: first two characters, four stars, last two (docs/PRODUCT.md section 6), e.g. 'Ramesh' -> 'Ra****sh'. */
  readonly mask: 'name';
  /** Rows matching this filter are shown in clear (e.g. the caller's own row). */
  readonly unlessRow?: PermissionFilter;
}

export interface SelectPermission {
  readonly filter: PermissionFilter;
  readonly columns: ColumnSelection;
  /** Most rows one select may return for this role (on top of the engine-wide maximum). */
  readonly limit?: number;
  /** May the role use `<table>_aggregate`? */
  readonly allowAggregations?: boolean;
  /** Columns shown through a mask (they must also be in `columns`). */
  readonly masked?: Readonly<Record<string, ColumnMask>>;
}

/** Column presets: a literal, or a session variable (`'X-Hasura-User-Id'`). Preset columns cannot be set by the caller. */
export type ColumnPresets = Readonly<Record<string, string | number | boolean>>;

export interface InsertPermission {
  /** Every inserted row must satisfy this, or the whole mutation fails with `permission-error`. */
  readonly check: PermissionFilter;
  readonly columns: ColumnSelection;
  readonly presets?: ColumnPresets;
  /** May the caller use `on_conflict` (an upsert also needs update permission)? Default true. */
  readonly allowUpsert?: boolean;
}

export interface UpdatePermission {
  /** Which rows the role may update. */
  readonly filter: PermissionFilter;
  /** Every row after the update must satisfy this. */
  readonly check?: PermissionFilter;
  readonly columns: ColumnSelection;
  readonly presets?: ColumnPresets;
}

export interface DeletePermission {
  readonly filter: PermissionFilter;
}

export interface RolePermissions {
  readonly select?: SelectPermission;
  readonly insert?: InsertPermission;
  readonly update?: UpdatePermission;
  readonly delete?: DeletePermission;
}

export interface TableDeclaration {
  /** GraphQL name: the root field names derive from it (`<name>`, `<name>_by_pk`, `insert_<name>`, ...). */
  readonly name: string;
  /** SQL schema; default `public`. */
  readonly sqlSchema?: string;
  /** SQL table or view name; default `name`. */
  readonly sqlName?: string;
  readonly description?: string;
  /**
   * Primary key columns for views (tables take theirs from the catalogue). A table without a key
   * gets no `_by_pk` fields.
   */
  readonly primaryKey?: readonly string[];
  /** Columns no role ever sees or sets, administrators included (broker secrets, hashes). */
  readonly hiddenColumns?: readonly string[];
  readonly objectRelationships?: Readonly<Record<string, RelationshipDeclaration>>;
  readonly arrayRelationships?: Readonly<Record<string, RelationshipDeclaration>>;
  /** Per role; a role absent here cannot see the table at all. The admin secret bypasses this. */
  readonly permissions: Readonly<Partial<Record<string, RolePermissions>>>;
}

/** What an action handler receives. */
export interface ActionInvocation {
  /** The field's arguments, already coerced by GraphQL (input objects as plain objects). */
  readonly args: Readonly<Record<string, unknown>>;
  readonly session: GraphqlSession;
}

/**
 * A custom root field (Hasura's actions) with the same permission model: only `roles` may call
 * it, and the handler does its own row-level checks with the session.
 */
export interface ActionDeclaration {
  readonly name: string;
  readonly kind: 'query' | 'mutation';
  /** SDL of the field itself, e.g. `run_backtest(input: run_backtest_input!): run_backtest_output!`. */
  readonly field: string;
  /** SDL of the input and output types the field uses (scalars of the table schema may be used). */
  readonly types: string;
  readonly description?: string;
  readonly roles: readonly string[];
  /**
   * Returns the output object; GraphQL selects the requested fields from it. Throw an
   * `ActionError` (see ../types) for a Hasura-shaped error with its code.
   */
  handler(invocation: ActionInvocation): Promise<unknown>;
}

export interface Metadata {
  readonly tables: readonly TableDeclaration[];
  readonly actions: readonly ActionDeclaration[];
}

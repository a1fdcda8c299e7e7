/**
 * The table x role x operation matrix of docs/GRAPHQL-PERMISSIONS.md, generated from the
 * metadata (a test keeps the document in step with the declarations).
 */
import type { Metadata, RolePermissions, TableDeclaration } from './types';
import { ALL_ROLES } from './roles';

type Operation = keyof RolePermissions;

const OPERATIONS: readonly Operation[] = ['select', 'insert', 'update', 'delete'];

/** Markers between which the generated part of the document sits. */
export const GENERATED_BEGIN = '<!-- BEGIN GENERATED: permissionMatrixMarkdown(vyuhaMetadata([])) -->';
export const GENERATED_END = '<!-- END GENERATED -->';

/** Every role the metadata mentions: the known roles first, in their order, then any others. */
function rolesOf(metadata: Metadata): string[] {
  const mentioned = new Set<string>();
  for (const table of metadata.tables) for (const role of Object.keys(table.permissions)) mentioned.add(role);
  const known = ALL_ROLES.filter((role) => mentioned.has(role));
  return [...known, ...[...mentioned].filter((role) => !(ALL_ROLES as readonly string[]).includes(role)).sort()];
}

/** `S` select, `A` aggregates, `I` insert, `U` update, `D` delete, `-` nothing. */
function cell(permissions: RolePermissions | undefined): string {
  if (!permissions) return '-';
  const letters = [
    permissions.select ? 'S' : '',
    permissions.select?.allowAggregations ? 'A' : '',
    permissions.insert ? 'I' : '',
    permissions.update ? 'U' : '',
    permissions.delete ? 'D' : '',
  ].join('');
  return letters === '' ? '-' : letters;
}

function code(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

function describeOperation(operation: Operation, permissions: RolePermissions): string[] {
  const parts: string[] = [];
  const select = permissions.select;
  const insert = permissions.insert;
  const update = permissions.update;
  if (operation === 'select' && select) {
    parts.push(`rows ${code(select.filter)}`, `columns ${code(select.columns)}`);
    if (select.limit !== undefined) parts.push(`limit ${select.limit}`);
    if (select.allowAggregations) parts.push('aggregates');
    if (select.masked) parts.push(`masked ${code(select.masked)}`);
  } else if (operation === 'insert' && insert) {
    parts.push(`check ${code(insert.check)}`, `columns ${code(insert.columns)}`);
    if (insert.presets && Object.keys(insert.presets).length > 0) parts.push(`presets ${code(insert.presets)}`);
    if (insert.allowUpsert === false) parts.push('no upsert');
  } else if (operation === 'update' && update) {
    parts.push(`rows ${code(update.filter)}`);
    if (update.check) parts.push(`check ${code(update.check)}`);
    parts.push(`columns ${code(update.columns)}`);
    if (update.presets) parts.push(`presets ${code(update.presets)}`);
  } else if (operation === 'delete' && permissions.delete) {
    parts.push(`rows ${code(permissions.delete.filter)}`);
  }
  return parts;
}

/** The lines of one table's detail section: roles with identical rules share a line. */
function tableDetails(table: TableDeclaration, roles: readonly string[]): string[] {
  const lines = [`### ${table.name}`, ''];
  if (table.description) lines.push(table.description, '');
  if (table.hiddenColumns?.length) lines.push(`Hidden from every role and the admin secret: ${code(table.hiddenColumns)}.`, '');
  const relationships = [
    ...Object.entries(table.objectRelationships ?? {}).map(([name, rel]) => `${name} (object -> ${rel.table})`),
    ...Object.entries(table.arrayRelationships ?? {}).map(([name, rel]) => `${name} (array -> ${rel.table})`),
  ];
  if (relationships.length > 0) lines.push(`Relationships: ${relationships.join(', ')}.`, '');
  lines.push('| operation | roles | rule |', '|---|---|---|');
  for (const operation of OPERATIONS) {
    const groups = new Map<string, string[]>();
    for (const role of roles) {
      const permissions = table.permissions[role];
      if (!permissions?.[operation]) continue;
      const text = describeOperation(operation, permissions).join('; ');
      groups.set(text, [...(groups.get(text) ?? []), role]);
    }
    for (const [text, members] of groups) lines.push(`| ${operation} | ${members.join(', ')} | ${text.replace(/\|/g, '\\|')} |`);
  }
  lines.push('');
  return lines;
}

/**
 * The generated part of docs/GRAPHQL-PERMISSIONS.md: the matrix, then each table's rules.
 * @example permissionMatrixMarkdown({tables, actions: []}) -> '| table | trial | ... |\n|---|...'
 */
export function permissionMatrixMarkdown(metadata: Metadata): string {
  const roles = rolesOf(metadata);
  const lines = [
    'Cells: `S` select, `A` aggregates (`<table>_aggregate`), `I` insert, `U` update, `D` delete, `-` no access.',
    '',
    `| table | ${roles.join(' | ')} |`,
    `|---|${roles.map(() => '---').join('|')}|`,
    ...metadata.tables.map((table) => `| ${table.name} | ${roles.map((role) => cell(table.permissions[role])).join(' | ')} |`),
    '',
  ];
  if (metadata.actions.length > 0) {
    lines.push('Actions:', '', '| action | kind | roles |', '|---|---|---|');
    for (const action of metadata.actions) lines.push(`| ${action.name} | ${action.kind} | ${action.roles.join(', ')} |`);
    lines.push('');
  }
  lines.push('## Rules per table', '');
  for (const table of metadata.tables) lines.push(...tableDetails(table, roles));
  return lines.join('\n').trimEnd() + '\n';
}

/** Replaces the generated part of a document (between the markers) with `generated`. */
export function replaceGeneratedSection(document: string, generated: string): string {
  const begin = document.indexOf(GENERATED_BEGIN);
  const end = document.indexOf(GENERATED_END);
  if (begin < 0 || end < begin) throw new Error(`the document lacks the markers ${GENERATED_BEGIN} ... ${GENERATED_END}`);
  return `${document.slice(0, begin + GENERATED_BEGIN.length)}\n${generated}${document.slice(end)}`;
}

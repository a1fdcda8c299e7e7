// The GraphQL requests of the /algo editor, built as plain text and variables so their shape is
// tested without a server. A save is ONE request: our GraphQL engine runs every table mutation
// root field of a request in order inside one transaction (packages/server/src/graphql/execute/
// run.ts), so the new immutable algorithm_versions row, algorithms.latest_version and the editor
// flag commit together or not at all. The version number is latest + 1; the versions' primary key
// (algorithm_id, version) refuses a second save of the same number from another tab.
import { ALGORITHM_VERSION, type AlgorithmDocument } from '@vyuha/engine';

/** user_app_configs row holding the editor's per-algorithm flags (docs/PRODUCT.md section 3 "Algo editor state"). */
export const EDITOR_CONFIG = { category: 'algo', subcategory: 'editor' } as const;

/** The version a save creates. @example nextVersion(null) // 1 */
export function nextVersion(latestVersion: number | null): number {
  return (latestVersion ?? 0) + 1;
}

export interface GraphqlRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** What the editor keeps per algorithm in the user's editor config (`meta_data[algorithm_id]`). */
export interface EditorFlags {
  readonly signalEnabled: boolean;
}

/** Reads the flags of one algorithm from the editor config's meta_data; signals default to on. */
export function editorFlags(metaData: unknown, algorithmId: string): EditorFlags {
  const entry = typeof metaData === 'object' && metaData !== null ? (metaData as Record<string, unknown>)[algorithmId] : undefined;
  const enabled = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['signalEnabled'] : undefined;
  return { signalEnabled: typeof enabled === 'boolean' ? enabled : true };
}

/**
 * The root field that stores the flags: `_append` (a shallow jsonb merge, so other algorithms'
 * entries stay) when the user's editor config row exists, else its insert.
 */
function flagsField(options: { userId: string; configExists: boolean }): { field: string; variables: string } {
  if (options.configExists) {
    return {
      variables: '$user_id: uuid!, $flags: jsonb!',
      field: `flags: update_user_app_configs_by_pk(pk_columns: { user_id: $user_id, category: "${EDITOR_CONFIG.category}", subcategory: "${EDITOR_CONFIG.subcategory}" }, _append: { meta_data: $flags }) { meta_data }`,
    };
  }
  return {
    variables: '$flags: jsonb!',
    field: `flags: insert_user_app_configs_one(object: { category: "${EDITOR_CONFIG.category}", subcategory: "${EDITOR_CONFIG.subcategory}", meta_data: $flags }) { meta_data }`,
  };
}

function flagsVariables(options: { userId: string; configExists: boolean; algorithmId: string; flags: EditorFlags }): Record<string, unknown> {
  return { ...(options.configExists ? { user_id: options.userId } : {}), flags: { [options.algorithmId]: { signalEnabled: options.flags.signalEnabled } } };
}

export interface SaveVersionInput {
  readonly algorithmId: string;
  readonly latestVersion: number | null;
  readonly graph: AlgorithmDocument;
  readonly name: string;
  readonly description: string;
  readonly flags: EditorFlags;
  /** The acting user (owner of the editor config row). */
  readonly userId: string;
  readonly configExists: boolean;
}

/**
 * Saves the graph as version latest + 1 of an existing algorithm, with its name, description and
 * the editor flags, in one request (one transaction).
 */
export function saveVersionRequest(input: SaveVersionInput): GraphqlRequest {
  const flags = flagsField(input);
  const query = `
    mutation SaveAlgorithmVersion($algorithm_id: uuid!, $version: Int!, $graph: jsonb!, $schema_version: Int!, $set: algorithms_set_input!, ${flags.variables}) {
      version: insert_algorithm_versions_one(object: { algorithm_id: $algorithm_id, version: $version, graph: $graph, schema_version: $schema_version }) { version created_at }
      algorithm: update_algorithms_by_pk(pk_columns: { algorithm_id: $algorithm_id }, _set: $set) { algorithm_id latest_version name description }
      ${flags.field}
    }`;
  const version = nextVersion(input.latestVersion);
  return {
    query,
    variables: {
      algorithm_id: input.algorithmId,
      version,
      graph: input.graph,
      schema_version: ALGORITHM_VERSION,
      set: { latest_version: version, name: input.name, description: input.description },
      ...flagsVariables(input),
    },
  };
}

/**
 * Creates the algorithms row of a new algorithm. Its first version follows with
 * saveVersionRequest: the algorithm's id is chosen by the database and the insert permission
 * does not take one from the client, so the two cannot share one request.
 */
export function createAlgorithmRequest(input: { name: string; description: string }): GraphqlRequest {
  return {
    query: `
      mutation CreateAlgorithm($object: algorithms_insert_input!) {
        insert_algorithms_one(object: $object) { algorithm_id latest_version }
      }`,
    variables: { object: { name: input.name, description: input.description } },
  };
}

/** Stores only the editor flags (the signal switch of a saved algorithm). */
export function saveFlagsRequest(input: { algorithmId: string; flags: EditorFlags; userId: string; configExists: boolean }): GraphqlRequest {
  const flags = flagsField(input);
  return { query: `mutation SaveAlgorithmFlags(${flags.variables}) { ${flags.field} }`, variables: flagsVariables(input) };
}

/** Publishes or unpublishes (the `published` column). */
export function publishRequest(input: { algorithmId: string; published: boolean }): GraphqlRequest {
  return {
    query: `
      mutation PublishAlgorithm($algorithm_id: uuid!, $published: Boolean!) {
        update_algorithms_by_pk(pk_columns: { algorithm_id: $algorithm_id }, _set: { published: $published }) { algorithm_id published }
      }`,
    variables: { algorithm_id: input.algorithmId, published: input.published },
  };
}

/** The unique (user_id, name) constraint of migration 0004. */
const UNIQUE_NAME_CONSTRAINT = 'algorithms_user_id_name_key';
const VERSION_KEY_CONSTRAINT = 'algorithm_versions_pkey';

/** Where a failed save's message belongs: next to the name field, or as a toast. */
export type SaveFailure = { readonly field: 'name'; readonly message: string } | { readonly field: 'toast'; readonly message: string };

/**
 * The readable form of a save's server error.
 * @example saveFailure('Uniqueness violation. duplicate key value violates unique constraint "algorithms_user_id_name_key"')
 * // { field: 'name', message: 'You already have an algorithm with this name' }
 */
export function saveFailure(serverMessage: string): SaveFailure {
  if (serverMessage.includes(UNIQUE_NAME_CONSTRAINT)) return { field: 'name', message: 'You already have an algorithm with this name' };
  if (serverMessage.includes(VERSION_KEY_CONSTRAINT)) {
    return { field: 'toast', message: 'A newer version was saved meanwhile (another tab?): reload the algorithm before saving' };
  }
  return { field: 'toast', message: serverMessage };
}

/** The name a copy of someone's published algorithm starts with. @example copyName('Trend') // 'Trend (copy)' */
export function copyName(name: string): string {
  return `${name} (copy)`;
}

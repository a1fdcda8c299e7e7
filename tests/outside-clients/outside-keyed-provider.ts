/**
 * ra-data-hasura for tables whose key is not named `id`, through its public extension points
 * only (`buildCustomDataProvider`'s `customBuildVariables` and `customGetResponseParser`): the
 * library has no idKey option, so the `id` it writes into `where` and `pk_columns` is renamed to
 * the table's key, and every record it returns gets `id` = that key. The GraphQL documents are
 * still the library's own.
 */
import type { ApolloClient } from '@apollo/client/core';
import type { DataProvider } from 'ra-core';
import * as raDataHasura from 'ra-data-hasura';

type Variables = Record<string, unknown>;
// The library's own signatures (four arguments), written as rest tuples.
type VariablesBuilder = (introspection: unknown) => (...call: [resource: { type: { name: string } }, fetchType: string, params: unknown, queryType: unknown]) => Variables;
type ResponseParser = (introspection: unknown) => (fetchType: string, resource?: { type: { name: string } }) => (response: { data: unknown }) => { data: unknown; total?: number };
type BuildCustomDataProvider = (...call: [options: { client: ApolloClient<unknown> }, overrides?: object, buildVariables?: VariablesBuilder, getResponseParser?: ResponseParser]) => Promise<DataProvider>;

/** The package is CommonJS with `exports.default`: unwrap it the same way under Node and Vite. */
function libraryExports(): { build: BuildCustomDataProvider; buildVariables: VariablesBuilder; getResponseParser: ResponseParser } {
  const module = raDataHasura as unknown as Record<string, unknown> & { default?: Record<string, unknown> | BuildCustomDataProvider };
  const named = typeof module.default === 'object' && module.default !== null ? module.default : module;
  const build = typeof module.default === 'function' ? module.default : (named.default as BuildCustomDataProvider);
  return { build, buildVariables: named.buildVariables as VariablesBuilder, getResponseParser: named.getResponseParser as ResponseParser };
}

/** The library's default builder (`buildHasuraProvider`). */
export function hasuraProviderBuilder(): (options: { client: ApolloClient<unknown> }) => Promise<DataProvider> {
  const { build } = libraryExports();
  return (options) => build(options);
}

/** `{id: x}` -> `{[key]: x}` at the top of a `where`, `pk_columns` or an `_and` item. */
function renameId(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const renamed: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (name === 'id') renamed[key] = inner;
    else if (name === '_and' || name === '_or') renamed[name] = Array.isArray(inner) ? inner.map((item) => renameId(item, key)) : inner;
    else renamed[name] = inner;
  }
  return renamed;
}

function withId(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null) return record;
  return { ...record, id: (record as Record<string, unknown>)[key] };
}

/**
 * A data provider whose resources are keyed by the given column (e.g. `{ subscriptions: 'subscription_id' }`).
 * @example await keyedHasuraProvider({ client, keys: { subscriptions: 'subscription_id' } })
 */
export function keyedHasuraProvider(options: { client: ApolloClient<unknown>; keys: Readonly<Record<string, string>> }): Promise<DataProvider> {
  const library = libraryExports();
  const buildVariables: VariablesBuilder = (introspection) => (...call) => {
    const variables = library.buildVariables(introspection)(...call);
    const key = options.keys[call[0].type.name];
    if (!key) return variables;
    return { ...variables, ...(variables.where ? { where: renameId(variables.where, key) } : {}), ...(variables.pk_columns ? { pk_columns: renameId(variables.pk_columns, key) } : {}) };
  };
  const getResponseParser: ResponseParser = (introspection) => (fetchType, resource) => (response) => {
    const key = resource ? options.keys[resource.type.name] : undefined;
    if (!key) return library.getResponseParser(introspection)(fetchType, resource)(response);
    const data = response.data as Record<string, unknown>;
    // The library reads `id` off `returning` for these two; give it the key instead.
    if (fetchType === 'UPDATE_MANY' || fetchType === 'DELETE_MANY') {
      const returning = (data.data as { returning: Array<Record<string, unknown>> }).returning;
      return { data: returning.map((row) => row[key]) };
    }
    const parsed = library.getResponseParser(introspection)(fetchType, resource)(response);
    return { ...parsed, data: Array.isArray(parsed.data) ? parsed.data.map((row) => withId(row, key)) : withId(parsed.data, key) };
  };
  return library.build({ client: options.client }, {}, buildVariables, getResponseParser);
}

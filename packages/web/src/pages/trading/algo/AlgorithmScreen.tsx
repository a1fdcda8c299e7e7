// Loads what the editor opens: a saved algorithm (its row, the version shown, the user's editor
// flags) or a new one (empty, or a copy of a published algorithm's version), and decides whether
// it may be changed: own algorithm, a role that builds algorithms (docs/PRODUCT.md section 6), not in update
// mode. The editor remounts whenever the saved row changes, so after a save it shows the server's
// state.
import { Alert, Loader, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { useReadOnly } from '../../../app/update-mode';
import { STRATEGY_WRITER_ROLES, useSubject } from '../parts/use-subject';
import { QueryError } from '../research/query-feedback';
import { useActorId } from '../research/use-window-starts';
import { AlgoEditor, type EditorStart } from './AlgoEditor';
import { exitRulesOf } from './ExitRulesForm';
import type { AlgorithmRow } from './AlgoList';
import { documentToFlow, parameterDeclarationsOf, readStoredGraph, type FlowGraph, type ParameterDeclarations } from './graph-model';
import { copyName, EDITOR_CONFIG, editorFlags } from './save-requests';
import { VersionHistory } from './VersionHistory';

const CONFIG_WHERE = `user_app_configs(where: { user_id: { _eq: $user_id }, category: { _eq: "${EDITOR_CONFIG.category}" }, subcategory: { _eq: "${EDITOR_CONFIG.subcategory}" } }) { meta_data }`;

const ALGORITHM_QUERY = `
  query AlgorithmForEditor($algorithm_id: uuid!, $user_id: uuid!) {
    algorithms_by_pk(algorithm_id: $algorithm_id) { algorithm_id name description published latest_version user_id updated_at }
    ${CONFIG_WHERE}
  }`;

const CONFIG_QUERY = `query AlgoEditorConfig($user_id: uuid!) { ${CONFIG_WHERE} }`;

const VERSION_QUERY = `
  query AlgorithmVersionGraph($algorithm_id: uuid!, $version: Int!) {
    algorithms_by_pk(algorithm_id: $algorithm_id) { name description }
    algorithm_versions_by_pk(algorithm_id: $algorithm_id, version: $version) { version graph }
  }`;

interface ConfigRows { readonly user_app_configs: readonly { readonly meta_data: unknown }[] }
interface VersionData {
  readonly algorithms_by_pk: { readonly name: string; readonly description: string } | null;
  readonly algorithm_versions_by_pk: { readonly version: number; readonly graph: unknown } | null;
}

const EMPTY_GRAPH: FlowGraph = { nodes: [], edges: [] };

/** Where the screen can go from an algorithm. */
export interface AlgoNavigation {
  readonly open: (algorithmId: string, version?: number) => void;
  readonly copy: (algorithmId: string, version: number) => void;
}

/** The stored graph as the editor's start, or the reason it cannot be opened. */
function graphStart(graph: unknown): { graph: FlowGraph; exits: EditorStart['exits']; declarations?: ParameterDeclarations } | undefined {
  const document = readStoredGraph(graph);
  return document === undefined ? undefined : { graph: documentToFlow(document), exits: exitRulesOf(document.exits), declarations: parameterDeclarationsOf(document) };
}

function useVersion(algorithmId: string | undefined, version: number | null | undefined) {
  return useQuery<VersionData>({
    query: VERSION_QUERY, variables: { algorithm_id: algorithmId ?? '', version: version ?? 0 }, pause: algorithmId === undefined || version === null || version === undefined,
  });
}

function UnreadableGraph() {
  return <Alert color="red" variant="light" title="Cannot open this version">Its graph is not an algorithm document this editor reads.</Alert>;
}

function useWriteRole(): boolean {
  const { role } = useSubject();
  return role !== undefined && STRATEGY_WRITER_ROLES.includes(role);
}

/** A saved algorithm, at its latest version or at `version` (read-only). */
export function SavedAlgorithm({ algorithmId, version, userId, navigation }: {
  readonly algorithmId: string; readonly version: number | undefined; readonly userId: string; readonly navigation: AlgoNavigation;
}) {
  const updateMode = useReadOnly();
  const writeRole = useWriteRole();
  const actorId = useActorId();
  const [meta, refetchMeta] = useQuery<{ algorithms_by_pk: AlgorithmRow | null } & ConfigRows>({ query: ALGORITHM_QUERY, variables: { algorithm_id: algorithmId, user_id: userId } });
  const row = meta.data?.algorithms_by_pk;
  const shownVersion = version ?? row?.latest_version ?? null;
  const [versionResult] = useVersion(row === undefined || row === null ? undefined : algorithmId, shownVersion);
  const stored = versionResult.data?.algorithm_versions_by_pk;
  const loaded = useMemo(() => (shownVersion === null ? { graph: EMPTY_GRAPH, exits: {} } : stored ? graphStart(stored.graph) : undefined), [shownVersion, stored]);

  if (meta.error) return <QueryError error={meta.error} title="Could not load the algorithm" />;
  if (versionResult.error) return <QueryError error={versionResult.error} title="Could not load the version" />;
  if (row === null) return <Alert color="yellow" variant="light">This algorithm does not exist or is not shared with you.</Alert>;
  // urql keeps the previous variables' answer while the next one loads: wait for the version asked.
  if (row === undefined || (shownVersion !== null && (stored === undefined || (stored !== null && stored.version !== shownVersion)))) return <Loader size="sm" />;
  if (stored === null) return <Alert color="yellow" variant="light">Version {shownVersion} does not exist.</Alert>;
  if (loaded === undefined) return <UnreadableGraph />;

  const own = row.user_id === userId;
  const canWrite = own && writeRole && !updateMode;
  const readOnlyReason = !own
    ? 'A published algorithm of another user: you can view it and copy it to your own algorithms.'
    : updateMode ? 'The platform is being updated: editing is off for now.'
      : !writeRole ? 'Your role cannot change algorithms.' : undefined;
  const viewingOld = version !== undefined && version !== row.latest_version;
  const start: EditorStart = {
    algorithmId, latestVersion: row.latest_version, name: row.name, description: row.description, published: row.published,
    graph: loaded.graph, exits: loaded.exits, ...(loaded.declarations === undefined ? {} : { declarations: loaded.declarations }),
    flags: editorFlags(meta.data?.user_app_configs[0]?.meta_data, algorithmId),
    configExists: (meta.data?.user_app_configs.length ?? 0) > 0,
    ...(viewingOld ? { viewingVersion: version } : {}),
  };
  const onSaved = (): void => {
    refetchMeta({ requestPolicy: 'network-only' });
    navigation.open(algorithmId);
  };
  return (
    <Stack gap="md">
      <AlgoEditor key={`${algorithmId}:${stored?.version ?? 0}:${row.updated_at}`} start={start} userId={userId} canWrite={canWrite}
        {...(readOnlyReason === undefined ? {} : { readOnlyReason })} onSaved={onSaved}
        {...(!own && shownVersion !== null && writeRole && !updateMode ? { onCopy: () => navigation.copy(algorithmId, shownVersion) } : {})}
        {...(viewingOld ? { onBackToLatest: () => navigation.open(algorithmId) } : {})} />
      <VersionHistory key={`${row.latest_version}`} algorithmId={algorithmId} ownerId={row.user_id} actorId={actorId} openVersion={shownVersion} onOpen={(picked) => navigation.open(algorithmId, picked)} />
    </Stack>
  );
}

/** A new algorithm: empty, or a copy of another algorithm's version. */
export function NewAlgorithm({ copyFrom, userId, navigation }: {
  readonly copyFrom: { algorithmId: string; version: number } | undefined; readonly userId: string; readonly navigation: AlgoNavigation;
}) {
  const updateMode = useReadOnly();
  const writeRole = useWriteRole();
  const [config] = useQuery<ConfigRows>({ query: CONFIG_QUERY, variables: { user_id: userId } });
  const [source] = useVersion(copyFrom?.algorithmId, copyFrom?.version);
  const stored = source.data?.algorithm_versions_by_pk;
  const loaded = useMemo(() => (copyFrom === undefined ? { graph: EMPTY_GRAPH, exits: {} } : stored ? graphStart(stored.graph) : undefined), [copyFrom, stored]);

  if (config.error) return <QueryError error={config.error} title="Could not load your editor settings" />;
  if (source.error) return <QueryError error={source.error} title="Could not load the algorithm to copy" />;
  if (config.data === undefined || (copyFrom !== undefined && stored === undefined)) return <Loader size="sm" />;
  if (stored === null) return <Alert color="yellow" variant="light">The version to copy does not exist.</Alert>;
  if (loaded === undefined) return <UnreadableGraph />;

  const sourceRow = source.data?.algorithms_by_pk;
  const start: EditorStart = {
    latestVersion: null,
    name: sourceRow ? copyName(sourceRow.name) : '',
    description: sourceRow?.description ?? '',
    published: false,
    graph: loaded.graph,
    exits: loaded.exits,
    ...(loaded.declarations === undefined ? {} : { declarations: loaded.declarations }),
    flags: { signalEnabled: true },
    configExists: config.data.user_app_configs.length > 0,
  };
  const canWrite = writeRole && !updateMode;
  const reason = updateMode ? 'The platform is being updated: editing is off for now.' : !writeRole ? 'Your role cannot create algorithms.' : undefined;
  return (
    <AlgoEditor start={start} userId={userId} canWrite={canWrite} {...(reason === undefined ? {} : { readOnlyReason: reason })}
      onSaved={(algorithmId) => navigation.open(algorithmId)} />
  );
}

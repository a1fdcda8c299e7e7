// The algorithm editor (docs/PRODUCT.md section 3 "Algo editor state": the selected algorithm, its rules,
// their syntax errors and the signal-enabled flag): name and description, the rule graph, exit
// rules, the $parameters and their constraints, live errors, Save (a new immutable version),
// Publish/Unpublish and the signal switch.
// Saving is refused while anything is wrong; the server's refusals land next to the field they
// concern (the unique name) or as an error toast (docs/PRODUCT.md section 8).
import { Alert, Badge, Button, Group, List, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import type { ExitRules } from '@vyuha/engine';
import { useCallback, useMemo, useState } from 'react';
import { useClient } from 'urql';
import { confirm } from '../../../app/confirm';
import { showToast } from '../../../app/toast';
import { errorMessage } from '../research/query-feedback';
import { ExitRulesForm } from './ExitRulesForm';
import { errorCount, placeErrors } from './graph-errors';
import { flowToDocument, type FlowGraph, type ParameterDeclarations } from './graph-model';
import { ParametersForm } from './ParametersForm';
import { declarationsOf, storedDeclarations, type Declarations } from './parameters-model';
import { RuleCanvas } from './RuleCanvas';
import { SignalPreview } from './SignalPreview';
import {
  createAlgorithmRequest, nextVersion, publishRequest, saveFailure, saveFlagsRequest, saveVersionRequest,
  type EditorFlags, type GraphqlRequest,
} from './save-requests';

/** What the editor opens with. */
export interface EditorStart {
  /** Undefined for a new (or copied) algorithm not saved yet. */
  readonly algorithmId?: string;
  readonly latestVersion: number | null;
  readonly name: string;
  readonly description: string;
  readonly published: boolean;
  readonly graph: FlowGraph;
  readonly exits: ExitRules;
  /** The document's parameter declarations and constraints (edited in the Parameters section). */
  readonly declarations?: ParameterDeclarations;
  readonly flags: EditorFlags;
  readonly configExists: boolean;
  /** Set when an older version is open (read-only; it can be restored as a new version). */
  readonly viewingVersion?: number;
}

export interface EditorProps {
  readonly start: EditorStart;
  /** The acting user (owner of the rows written). */
  readonly userId: string;
  /** Writes allowed: own algorithm, a builder role, not in update mode. */
  readonly canWrite: boolean;
  /** Why writes are off, shown above the editor when they are. */
  readonly readOnlyReason?: string;
  readonly onSaved: (algorithmId: string) => void;
  readonly onCopy?: () => void;
  readonly onBackToLatest?: () => void;
}

type Mutate = (request: GraphqlRequest) => Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; message: string }>;

function useMutate(): Mutate {
  const client = useClient();
  return useCallback(async (request) => {
    const result = await client.mutation(request.query, request.variables).toPromise();
    if (result.error) return { ok: false, message: errorMessage(result.error) };
    return { ok: true, data: (result.data ?? {}) as Record<string, unknown> };
  }, [client]);
}

function ErrorsPanel({ errors }: { readonly errors: ReturnType<typeof placeErrors> }) {
  const count = errorCount(errors);
  if (count === 0) return <Alert color="teal" variant="light" data-testid="algo-errors-none">No errors: the algorithm can be saved.</Alert>;
  return (
    <Alert color="red" variant="light" title={`${count} error${count === 1 ? '' : 's'}`} data-testid="algo-errors">
      <List size="sm" spacing={2}>
        {errors.all.map((error, index) => (
          <List.Item key={index}>
            {error.nodeId !== undefined && <Text span fw={600}>{error.nodeId}: </Text>}
            <Text span ff={error.nodeId === undefined ? 'text' : 'monospace'} size="sm">{error.text}</Text>
          </List.Item>
        ))}
        {[...errors.exits].map(([field, message]) => <List.Item key={field}><Text span fw={600}>{field}: </Text>{message}</List.Item>)}
      </List>
    </Alert>
  );
}

export function AlgoEditor({ start, userId, canWrite, readOnlyReason, onSaved, onCopy, onBackToLatest }: EditorProps) {
  const mutate = useMutate();
  const viewingOld = start.viewingVersion !== undefined;
  const readOnly = !canWrite || viewingOld;
  const [graph, setGraph] = useState<FlowGraph>(start.graph);
  const [exits, setExits] = useState<ExitRules>(start.exits);
  const [declarations, setDeclarations] = useState<Declarations>(() => declarationsOf(start.declarations));
  const [name, setName] = useState(start.name);
  const [description, setDescription] = useState(start.description);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [flags, setFlags] = useState<EditorFlags>(start.flags);
  const [configExists, setConfigExists] = useState(start.configExists);
  const [algorithmId, setAlgorithmId] = useState(start.algorithmId);
  const [busy, setBusy] = useState(false);

  const document = useMemo(() => flowToDocument(graph, exits, storedDeclarations(declarations)), [graph, exits, declarations]);
  const errors = useMemo(() => placeErrors(document), [document]);
  const startText = useMemo(() => {
    const initial = flowToDocument(start.graph, start.exits, storedDeclarations(declarationsOf(start.declarations)));
    return JSON.stringify([initial.nodes, initial.edges, start.exits, initial.parameters, initial.constraints, start.name, start.description]);
  }, [start]);
  const dirty = algorithmId === undefined
    || JSON.stringify([document.nodes, document.edges, exits, document.parameters, document.constraints, name, description]) !== startText;
  const onGraphChange = useCallback((update: (current: FlowGraph) => FlowGraph) => setGraph(update), []);

  const fail = (message: string): void => {
    const failure = saveFailure(message);
    if (failure.field === 'name') setNameError(failure.message);
    else showToast('error', failure.message);
  };

  /** Saves `graphToSave` as the next version (creating the algorithm first when new). */
  const saveVersion = async (graphToSave = document): Promise<void> => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Give the algorithm a name');
      return;
    }
    const problems = errorCount(placeErrors(graphToSave));
    if (problems > 0) {
      showToast('error', `Fix the ${problems} error${problems === 1 ? '' : 's'} before saving`);
      return;
    }
    setBusy(true);
    try {
      let id = algorithmId;
      if (id === undefined) {
        const created = await mutate(createAlgorithmRequest({ name: trimmed, description }));
        if (!created.ok) return fail(created.message);
        id = (created.data['insert_algorithms_one'] as { algorithm_id: string }).algorithm_id;
        setAlgorithmId(id);
      }
      const latest = id === start.algorithmId ? start.latestVersion : null;
      const saved = await mutate(saveVersionRequest({ algorithmId: id, latestVersion: latest, graph: graphToSave, name: trimmed, description, flags, userId, configExists }));
      if (!saved.ok) return fail(saved.message);
      setConfigExists(true);
      setNameError(undefined);
      showToast('success', `Saved version ${nextVersion(latest)} of ${trimmed}`);
      onSaved(id);
    } finally {
      setBusy(false);
    }
  };

  const toggleSignals = async (signalEnabled: boolean): Promise<void> => {
    setFlags({ signalEnabled });
    // A saved algorithm keeps the switch at once; a new one stores it with its first save.
    if (algorithmId === undefined || !canWrite) return;
    const saved = await mutate(saveFlagsRequest({ algorithmId, flags: { signalEnabled }, userId, configExists }));
    if (!saved.ok) {
      setFlags({ signalEnabled: !signalEnabled });
      showToast('error', saved.message);
      return;
    }
    setConfigExists(true);
    showToast('success', signalEnabled ? 'Signals enabled' : 'Signals disabled');
  };

  const togglePublished = async (): Promise<void> => {
    if (algorithmId === undefined) return;
    const publish = !start.published;
    const accepted = await confirm({
      title: publish ? 'Publish algorithm' : 'Unpublish algorithm',
      message: publish
        ? <Text size="sm">Publish <b>{start.name}</b>? Every user of the marketplace can then see its rules, copy it and run it.</Text>
        : <Text size="sm">Unpublish <b>{start.name}</b>? It leaves the marketplace; strategies already using it keep their version.</Text>,
      acceptLabel: publish ? 'Publish' : 'Unpublish',
      rejectLabel: 'Cancel',
    });
    if (!accepted) return;
    const result = await mutate(publishRequest({ algorithmId, published: publish }));
    if (!result.ok) {
      showToast('error', result.message);
      return;
    }
    showToast('success', publish ? `${start.name} is published` : `${start.name} is no longer published`);
    onSaved(algorithmId);
  };

  const canPublish = canWrite && algorithmId !== undefined && start.latestVersion !== null && !viewingOld;

  return (
    <Stack gap="sm" data-testid="algo-editor">
      {readOnlyReason !== undefined && (
        <Alert color="blue" variant="light" data-testid="algo-read-only">
          <Group justify="space-between">
            <Text size="sm">{readOnlyReason}</Text>
            {onCopy !== undefined && <Button size="xs" variant="light" onClick={onCopy} data-testid="algo-copy">Copy to my algorithms</Button>}
          </Group>
        </Alert>
      )}
      {viewingOld && (
        <Alert color="yellow" variant="light" data-testid="algo-old-version">
          <Group justify="space-between">
            <Text size="sm">Version {start.viewingVersion} of {start.latestVersion ?? '-'} (read-only).</Text>
            <Group gap="xs">
              {canWrite && (
                <Button size="xs" loading={busy} data-testid="algo-restore" disabled={errorCount(errors) > 0}
                  onClick={() => void saveVersion(document)}>
                  Restore as version {nextVersion(start.latestVersion)}
                </Button>
              )}
              {onBackToLatest !== undefined && <Button size="xs" variant="default" onClick={onBackToLatest}>Back to the latest version</Button>}
            </Group>
          </Group>
        </Alert>
      )}
      <Group align="flex-start" gap="md">
        <TextInput label="Name" required w={280} value={name} readOnly={readOnly} data-testid="algo-name" error={nameError}
          onChange={(event) => { setName(event.currentTarget.value); setNameError(undefined); }} />
        <Textarea label="Description" w={360} autosize minRows={1} maxRows={3} value={description} readOnly={readOnly} data-testid="algo-description"
          onChange={(event) => setDescription(event.currentTarget.value)} />
        <Stack gap={6} pt={24}>
          <Switch label="Signals enabled" checked={flags.signalEnabled} disabled={!canWrite} data-testid="algo-signal-enabled"
            onChange={(event) => void toggleSignals(event.currentTarget.checked)} />
          {start.published && <Badge color="teal" variant="light" data-testid="algo-published-badge">Published</Badge>}
        </Stack>
      </Group>
      <RuleCanvas graph={graph} onChange={onGraphChange} errors={errors.byNode} readOnly={readOnly} />
      <ExitRulesForm exits={exits} errors={errors.exits} readOnly={readOnly} onChange={setExits} />
      <ParametersForm declarations={declarations} errors={errors.declarations} readOnly={readOnly} onChange={setDeclarations} />
      <ErrorsPanel errors={errors} />
      {canWrite && !viewingOld && (
        <Group>
          <Button data-testid="algo-save" loading={busy} disabled={!dirty} onClick={() => void saveVersion()}>
            {algorithmId === undefined ? 'Save version 1' : `Save version ${nextVersion(start.latestVersion)}`}
          </Button>
          {canPublish && (
            // Publishing shares the saved versions; unsaved edits would be lost when the editor reopens.
            <Button variant="light" color={start.published ? 'gray' : 'teal'} data-testid="algo-publish" disabled={dirty}
              title={dirty ? 'Save or undo your changes first' : undefined} onClick={() => void togglePublished()}>
              {start.published ? 'Unpublish' : 'Publish'}
            </Button>
          )}
          {!dirty && <Text size="sm" c="dimmed">No changes since version {start.latestVersion}.</Text>}
        </Group>
      )}
      <SignalPreview document={document} enabled={flags.signalEnabled} valid={errorCount(errors) === 0} />
    </Stack>
  );
}

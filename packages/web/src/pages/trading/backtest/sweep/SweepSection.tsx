// The "Sweep and walk-forward" tab of a finished backtest run (issue 20; engine side:
// packages/engine/src/sweep/README.md): for an algorithm version that declares $parameters, the
// form that starts a sweep or walk-forward of this run, the run's sweeps followed live, and the
// results of the one opened. An algorithm without parameters gets how to declare them instead.
import { Alert, Anchor, Code, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { numberField, objectField, stringField } from '../../research/display';
import { errorMessage, QueryError } from '../../research/query-feedback';
import { declaredParameters, initialForm } from './sweep-form';
import { SweepForm } from './SweepForm';
import { SweepList } from './SweepList';
import { SweepResults } from './SweepResults';
import { useAlgorithmGraph, useDefaultEstimate, useRunSweeps } from './use-sweeps';

/** The run's algorithm version, from its params (format vyuha.backtest-run). */
function runAlgorithm(params: unknown): { algorithmId: string; version: number; name: string } | undefined {
  const algorithm = objectField(params, 'algorithm');
  const algorithmId = stringField(algorithm, 'algorithmId');
  const version = numberField(algorithm, 'version');
  return algorithmId === undefined || version === undefined ? undefined : { algorithmId, version, name: stringField(algorithm, 'name') ?? 'The algorithm' };
}

function NoParameters({ name, version }: { readonly name: string; readonly version: number }) {
  return (
    <Alert color="gray" variant="light" title="Nothing to sweep" data-testid="sweep-no-parameters">
      <Stack gap={6}>
        <Text size="sm">{name} version {version} declares no parameters, so every run of it is the same run.</Text>
        <Text size="sm">
          To sweep, write <Code>$name</Code> where a number stands in its rules, e.g. <Code>sma(close, $fast) {'>'} sma(close, $slow)</Code>, and
          declare each parameter with a default and a range (from, to, step), optionally with constraints such as <Code>$fast {'<'} $slow</Code>.
          Save it as a new version in the <Anchor component={Link} to="/algo" size="sm">algorithm editor</Anchor>, run its backtest again, and sweep that run here.
        </Text>
      </Stack>
    </Alert>
  );
}

function Sweeps({ runId, profileName, fallback }: { readonly runId: string; readonly profileName: string; readonly fallback: unknown }) {
  const defaults = useDefaultEstimate(runId);
  const { sweeps, error } = useRunSweeps(runId);
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const fromGraph = objectField({ graph: fallback }, 'graph');
  const parameters = declaredParameters(defaults.data?.parameters ?? fromGraph?.parameters);
  const constraints = defaults.data?.constraints ?? (Array.isArray(fromGraph?.constraints) ? fromGraph.constraints.filter((item): item is string => typeof item === 'string') : []);
  const open = sweeps?.find((sweep) => sweep.sweep_id === opened);
  return (
    <Stack gap="md">
      {defaults.data === undefined && defaults.error === undefined ? <Loader size="sm" aria-label="Loading the parameters" /> : (
        <>
          {defaults.error !== undefined && parameters.length === 0 && (
            <Alert color="red" variant="light" title="This run cannot be swept" data-testid="sweep-refused">{errorMessage(defaults.error)}</Alert>
          )}
          {parameters.length > 0 && <SweepForm runId={runId} initial={initialForm(parameters, constraints)} onStarted={setOpened} />}
        </>
      )}
      <Title order={4}>Sweeps of this run</Title>
      <QueryError error={error} title="Could not load the sweeps" />
      {sweeps === undefined ? <Loader size="sm" /> : <SweepList sweeps={sweeps} opened={opened} onOpen={setOpened} />}
      {open !== undefined && <SweepResults key={open.sweep_id} sweep={open} profileName={profileName} />}
    </Stack>
  );
}

export interface SweepSectionProps {
  readonly runId: string;
  /** The run's params (its algorithm version). */
  readonly params: unknown;
  readonly profileName: string;
}

/** Sweeps and walk-forwards of backtest run `runId`. */
export function SweepSection({ runId, params, profileName }: SweepSectionProps) {
  const algorithm = runAlgorithm(params);
  const version = useAlgorithmGraph(algorithm);
  if (algorithm === undefined) return <Text c="dimmed">This run does not name its algorithm version, so it cannot be swept.</Text>;
  if (!version.loaded) return <Loader size="sm" aria-label="Loading the algorithm" />;
  const declared = declaredParameters(objectField({ graph: version.graph }, 'graph')?.parameters);
  // A version the user cannot read (null) is left to the server's estimate, which says why.
  if (version.graph !== null && declared.length === 0) return <NoParameters name={algorithm.name} version={algorithm.version} />;
  return <Sweeps runId={runId} profileName={profileName} fallback={version.graph} />;
}

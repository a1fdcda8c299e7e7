// The form that starts a sweep or walk-forward of one backtest run: the ranges (prefilled with
// the algorithm's own), constraints, all combinations or a seeded sample, the metric, and for a
// walk-forward its windows. The estimate (combinations, windows, credits against the credits
// left) is asked again as the form changes and shown before Start; the server's refusals are
// shown under the field they name (sweep-form.ts).
import { Alert, Button, Checkbox, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { showToast } from '../../../../app/toast';
import { useReadOnly } from '../../../../app/update-mode';
import { errorMessage } from '../../research/query-feedback';
import type { FieldIssues, SweepFormState, SweepKind } from './sweep-form';
import { generalIssues, issueAt, metricOf, readSweepForm, serverIssues } from './sweep-form';
import { betterText, METRIC_LABELS, METRIC_ORDER } from './sweep-view';
import { useStartSweep, useSweepEstimate, type SweepEstimate } from './use-sweeps';

const SHOWN_FIELDS = ['constraints', 'sample', 'metric', 'walkForward'];

type Update = (change: Partial<SweepFormState>) => void;

function RangesTable({ form, issues, update }: { readonly form: SweepFormState; readonly issues: FieldIssues; readonly update: Update }) {
  const setRange = (index: number, field: 'from' | 'to' | 'step', value: string): void =>
    update({ ranges: form.ranges.map((range, at) => (at === index ? { ...range, [field]: value } : range)) });
  return (
    <Table withTableBorder fz="sm" data-testid="sweep-ranges">
      <Table.Thead><Table.Tr><Table.Th>Parameter</Table.Th><Table.Th>From</Table.Th><Table.Th>To</Table.Th><Table.Th>Step</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {form.ranges.map((range, index) => {
          const whole = [issues[`parameters[${index}]`], issues[`parameters[${index}].name`]].filter((text) => text !== undefined).join('; ');
          return (
            <Table.Tr key={range.name}>
              <Table.Td>
                <Text size="sm" ff="monospace">${range.name}</Text>
                {whole !== '' && <Text size="xs" c="red" data-testid={`sweep-range-error-${range.name}`}>{whole}</Text>}
              </Table.Td>
              {(['from', 'to', 'step'] as const).map((field) => (
                <Table.Td key={field}>
                  <TextInput size="xs" inputMode="decimal" aria-label={`$${range.name} ${field}`} value={range[field]} error={issues[`parameters[${index}].${field}`]}
                    onChange={(event) => setRange(index, field, event.currentTarget.value)} data-testid={`sweep-${field}-${range.name}`} />
                </Table.Td>
              ))}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function WindowFields({ form, issues, update }: { readonly form: SweepFormState; readonly issues: FieldIssues; readonly update: Update }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="xs">
      <TextInput size="xs" label="In-sample days" description="Trading days each choice is made on" value={form.inSampleDays} error={issueAt(issues, 'walkForward.inSampleDays')}
        onChange={(event) => update({ inSampleDays: event.currentTarget.value })} data-testid="wf-in-sample" />
      <TextInput size="xs" label="Out-of-sample days" description="Trading days the choice then trades" value={form.outOfSampleDays} error={issueAt(issues, 'walkForward.outOfSampleDays')}
        onChange={(event) => update({ outOfSampleDays: event.currentTarget.value })} data-testid="wf-out-of-sample" />
      <TextInput size="xs" label="Step days" description="Between window starts (empty: out-of-sample days)" value={form.stepDays} error={issueAt(issues, 'walkForward.stepDays')}
        onChange={(event) => update({ stepDays: event.currentTarget.value })} data-testid="wf-step" />
      <Checkbox mt="lg" label="Anchored (every in-sample window starts on the first day)" checked={form.anchored}
        onChange={(event) => update({ anchored: event.currentTarget.checked })} data-testid="wf-anchored" />
    </SimpleGrid>
  );
}

function EstimateLine({ estimate, fetching }: { readonly estimate: SweepEstimate | undefined; readonly fetching: boolean }) {
  if (estimate === undefined) return <Text size="sm" c="dimmed" data-testid="sweep-estimate">{fetching ? 'Estimating…' : 'No estimate: correct the fields marked above.'}</Text>;
  const runs = estimate.kind === 'walkforward'
    ? `${(estimate.windows ?? 0).toLocaleString('en-IN')} windows, each choosing among ${estimate.combinations.toLocaleString('en-IN')} combinations`
    : `${estimate.combinations.toLocaleString('en-IN')} combinations (of ${estimate.grid_combinations.toLocaleString('en-IN')} in the grid before constraints and sampling)`;
  const short = estimate.credits > estimate.remaining_credits;
  return (
    <Stack gap={2} data-testid="sweep-estimate" data-combinations={estimate.combinations} data-windows={estimate.windows ?? ''} data-credits={estimate.credits}>
      <Text size="sm">{runs}, {estimate.candles_per_run.toLocaleString('en-IN')} candles a run.</Text>
      <Text size="sm" c={short ? 'red' : 'inherit'} fw={500}>
        Cost: {estimate.credits.toLocaleString('en-IN')} BACKTEST credits; you have {estimate.remaining_credits.toLocaleString('en-IN')} left{short ? ': not enough' : ''}.
      </Text>
    </Stack>
  );
}

export interface SweepFormProps {
  readonly runId: string;
  readonly initial: SweepFormState;
  readonly onStarted: (sweepId: string) => void;
}

/** The sweep form of run `runId`. */
export function SweepForm({ runId, initial, onStarted }: SweepFormProps) {
  const readOnly = useReadOnly();
  const [form, setForm] = useState(initial);
  const [startIssues, setStartIssues] = useState<FieldIssues>({});
  const update: Update = (change) => {
    setForm((before) => ({ ...before, ...change }));
    setStartIssues({});
  };
  const read = readSweepForm(runId, form);
  const estimate = useSweepEstimate(read.ok ? read.input : undefined);
  const [starting, start] = useStartSweep();
  const issues: FieldIssues = { ...(read.ok ? {} : read.issues), ...serverIssues(estimate.error?.graphQLErrors[0]), ...startIssues };
  const general = generalIssues(issues, [...form.ranges.map((_, index) => `parameters[${index}]`), ...SHOWN_FIELDS]);
  if (estimate.error !== undefined && estimate.error.graphQLErrors.length === 0) general.push(errorMessage(estimate.error));
  const affordable = estimate.data !== undefined && estimate.data.credits <= estimate.data.remaining_credits;
  const submit = async (): Promise<void> => {
    if (!read.ok) return;
    const result = await start({ input: read.input });
    if (result.error !== undefined) {
      setStartIssues(serverIssues(result.error.graphQLErrors[0] ?? { message: errorMessage(result.error) }));
      return;
    }
    if (result.data === undefined) return;
    showToast('success', `${form.kind === 'walkforward' ? 'Walk-forward' : 'Sweep'} started: ${result.data.start_sweep.credits.toLocaleString('en-IN')} credits reserved`);
    onStarted(result.data.start_sweep.sweep_id);
  };
  return (
    <Paper withBorder p="md" data-testid="sweep-form">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={500}>Which parameters, and do they hold out of sample?</Text>
          <SegmentedControl<SweepKind> size="xs" value={form.kind} onChange={(kind) => update({ kind })} aria-label="Sweep or walk-forward" data-testid="sweep-kind"
            data={[{ value: 'sweep', label: 'Sweep' }, { value: 'walkforward', label: 'Walk-forward' }]} />
        </Group>
        <Text size="xs" c="dimmed">
          {form.kind === 'sweep' ? 'Runs this backtest once per combination of the ranges below and ranks them by the metric.'
            : 'Rolls windows over the range: in each, the best combination on the in-sample days trades the out-of-sample days that follow.'}
        </Text>
        <RangesTable form={form} issues={issues} update={update} />
        <Textarea label="Constraints" description="One condition per line over the $parameters, e.g. $fast < $slow" autosize minRows={1} value={form.constraints}
          error={issueAt(issues, 'constraints')} onChange={(event) => update({ constraints: event.currentTarget.value })} data-testid="sweep-constraints" />
        <Group align="flex-end" gap="sm">
          <SegmentedControl size="xs" value={form.sampled ? 'sample' : 'all'} onChange={(value) => update({ sampled: value === 'sample' })} data-testid="sweep-sampled"
            data={[{ value: 'all', label: 'All combinations' }, { value: 'sample', label: 'Random sample' }]} aria-label="All combinations or a random sample" />
          {form.sampled && (
            <>
              <TextInput size="xs" w={140} label="Sample size" value={form.sampleCount} error={issueAt(issues, 'sample.count')}
                onChange={(event) => update({ sampleCount: event.currentTarget.value })} data-testid="sweep-sample-count" />
              <TextInput size="xs" w={120} label="Seed" value={form.sampleSeed} error={issueAt(issues, 'sample.seed')}
                onChange={(event) => update({ sampleSeed: event.currentTarget.value })} data-testid="sweep-sample-seed" />
            </>
          )}
          <Select size="xs" w={260} label="Rank by" allowDeselect={false} value={form.metric} error={issueAt(issues, 'metric')}
            onChange={(value) => update({ metric: metricOf(value, form.metric) })} data-testid="sweep-metric"
            data={METRIC_ORDER.map((metric) => ({ value: metric, label: `${METRIC_LABELS[metric]} (${betterText(metric)})` }))} />
        </Group>
        {form.kind === 'walkforward' && <WindowFields form={form} issues={issues} update={update} />}
        {general.length > 0 && <Alert color="red" variant="light" data-testid="sweep-form-error">{general.join(' ')}</Alert>}
        <Group justify="space-between" align="flex-end">
          <EstimateLine estimate={estimate.data} fetching={estimate.fetching} />
          <Button onClick={() => void submit()} loading={starting.fetching} data-testid="sweep-start"
            disabled={readOnly || !read.ok || !affordable || estimate.fetching || general.length > 0}>
            Start {form.kind === 'walkforward' ? 'walk-forward' : 'sweep'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

// "New strategy": from one of the user's complete backtests (create_strategy_from_backtest, which
// copies the backtest's algorithm, instrument, interval and sizing into a DRAFT), or from scratch
// (insert_strategies_one: the builder roles, own rows; the algorithm must be the user's or
// published, the server's permission check). Both make a DRAFT; the deploy dialog runs it.
//
// Props: `opened`, `onClose`, `userId` (whose strategy: the acting user), `onCreated(strategyId)`.
import { Button, Group, Modal, NativeSelect, NumberInput, SegmentedControl, Select, Stack, Tabs, Text, TextInput, Alert } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { showToast } from '../../../../app/toast';
import { INTERVAL_OPTIONS } from '../../backtest/form/FrequenciesField';
import { InstrumentPicker } from '../../backtest/form/InstrumentPicker';
import type { SelectedInstrument } from '../../backtest/form/form-state';
import { errorMessage } from '../QueryState';
import { dateTimeText } from '../time';
import { createInsertOf, EMPTY_CREATE_DRAFT, type CreateDraft } from './create-form';
import { refusalErrors } from './DeployDialog';
import type { FieldErrors } from './deploy-form';

const ALGORITHMS_QUERY = `query CreateStrategyAlgorithms($user_id: uuid!) {
  algorithms(where: { latest_version: { _is_null: false }, _or: [{ user_id: { _eq: $user_id } }, { published: { _eq: true } }] }, order_by: { name: asc }) {
    algorithm_id name user_id latest_version
  }
}`;

const BACKTESTS_QUERY = `query CreateStrategyBacktests($user_id: uuid!) {
  strategy_runs(where: { user_id: { _eq: $user_id }, kind: { _eq: "BACKTEST" }, status: { _eq: "COMPLETE" } }, order_by: { started_at: desc }, limit: 200) {
    run_id started_at strategy { name }
  }
}`;

const INSERT = `mutation CreateStrategy($object: strategies_insert_input!) { insert_strategies_one(object: $object) { strategy_id } }`;

const FROM_BACKTEST = `mutation CreateStrategyFromBacktest($run: uuid!, $name: String) {
  create_strategy_from_backtest(backtest_run_id: $run, name: $name) { strategy_id }
}`;

interface CreateProps {
  readonly userId: string;
  readonly onCreated: (strategyId: string) => void;
}

export function CreateStrategyDialog({ opened, onClose, userId, onCreated }: CreateProps & { readonly opened: boolean; readonly onClose: () => void }) {
  const done = (strategyId: string): void => {
    onCreated(strategyId);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="New strategy" size="lg">
      {opened && (
        <Tabs defaultValue="scratch" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="scratch">From scratch</Tabs.Tab>
            <Tabs.Tab value="backtest">From a backtest</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="scratch"><FromScratch userId={userId} onCreated={done} /></Tabs.Panel>
          <Tabs.Panel value="backtest"><FromBacktest userId={userId} onCreated={done} /></Tabs.Panel>
        </Tabs>
      )}
    </Modal>
  );
}

interface AlgorithmRow { readonly algorithm_id: string; readonly name: string; readonly user_id: string; readonly latest_version: number }

function AlgorithmFields({ userId, draft, errors, change }: {
  readonly userId: string; readonly draft: CreateDraft; readonly errors: FieldErrors; readonly change: (patch: Partial<CreateDraft>) => void;
}) {
  const [result] = useQuery<{ algorithms: AlgorithmRow[] }>({ query: ALGORITHMS_QUERY, variables: { user_id: userId } });
  const rows = result.data?.algorithms ?? [];
  const chosen = rows.find((row) => row.algorithm_id === draft.algorithmId);
  const data = [
    { group: 'Yours', items: rows.filter((row) => row.user_id === userId).map((row) => ({ value: row.algorithm_id, label: row.name })) },
    { group: 'Published', items: rows.filter((row) => row.user_id !== userId).map((row) => ({ value: row.algorithm_id, label: row.name })) },
  ].filter((group) => group.items.length > 0);
  const versions = chosen ? Array.from({ length: chosen.latest_version }, (_, index) => String(chosen.latest_version - index)) : [];
  return (
    <Group align="flex-start" wrap="wrap" gap="sm">
      <Select
        label="Algorithm" placeholder="Choose an algorithm" searchable data={data} value={draft.algorithmId} error={errors.algorithm} miw={240} style={{ flex: 1 }}
        data-testid="create-algorithm" nothingFoundMessage={result.fetching ? 'Loading…' : 'No algorithm matches'}
        onChange={(id) => change({ algorithmId: id, algorithmVersion: rows.find((row) => row.algorithm_id === id)?.latest_version ?? null })}
      />
      <NativeSelect
        label="Version" data={versions} value={draft.algorithmVersion === null ? '' : String(draft.algorithmVersion)} w={100} disabled={!chosen}
        data-testid="create-version" onChange={(event) => change({ algorithmVersion: Number(event.currentTarget.value) })}
      />
    </Group>
  );
}

function FromScratch({ userId, onCreated }: CreateProps) {
  const [draft, setDraft] = useState<CreateDraft>(EMPTY_CREATE_DRAFT);
  const [picked, setPicked] = useState<SelectedInstrument | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, insert] = useMutation<{ insert_strategies_one: { strategy_id: string } | null }>(INSERT);
  const change = (patch: Partial<CreateDraft>): void => setDraft((current) => ({ ...current, ...patch }));

  async function submit(): Promise<void> {
    const checked = createInsertOf(draft);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    const result = await insert({ object: checked.insert });
    const created = result.data?.insert_strategies_one;
    if (result.error || !created) {
      setErrors({ general: result.error ? errorMessage(result.error) : 'The strategy was not created: the algorithm must be yours or published.' });
      return;
    }
    showToast('success', `${checked.insert.name} is saved as a DRAFT: deploy it from the list.`);
    onCreated(created.strategy_id);
  }

  return (
    <Stack gap="sm">
      <TextInput label="Name" value={draft.name} error={errors.name} data-testid="create-name" onChange={(event) => change({ name: event.currentTarget.value })} />
      <AlgorithmFields userId={userId} draft={draft} errors={errors} change={change} />
      <InstrumentPicker value={picked} error={errors.instrument} disabled={false}
        onChange={(instrument) => {
          setPicked(instrument);
          change({ instrument: instrument === null ? null : { instrumentId: instrument.instrumentId, name: instrument.name } });
        }} />
      <Group align="flex-start" wrap="wrap" gap="sm">
        <NativeSelect label="Interval" data={INTERVAL_OPTIONS} value={String(draft.interval)} error={errors.interval} w={170}
          data-testid="create-interval" onChange={(event) => change({ interval: Number(event.currentTarget.value) })} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>Type</Text>
          <SegmentedControl<'intraday' | 'swing'> aria-label="Intraday or swing" value={draft.type} onChange={(type) => change({ type })}
            data={[{ value: 'intraday', label: 'Intraday' }, { value: 'swing', label: 'Swing' }]} />
        </Stack>
        <NumberInput hideControls label="Investment (₹)" min={0} decimalScale={2} thousandSeparator="," prefix="₹ " w={200} value={draft.investmentRupees}
          error={errors.investment} data-testid="create-investment" onChange={(value) => change({ investmentRupees: value })} />
      </Group>
      {errors.general && <Alert color="red" role="alert">{errors.general}</Alert>}
      <Group justify="flex-end">
        <Button loading={state.fetching} onClick={() => void submit()} data-testid="create-submit">Create DRAFT</Button>
      </Group>
    </Stack>
  );
}

interface BacktestRow { readonly run_id: string; readonly started_at: string; readonly strategy: { readonly name: string } | null }

function FromBacktest({ userId, onCreated }: CreateProps) {
  const [result] = useQuery<{ strategy_runs: BacktestRow[] }>({ query: BACKTESTS_QUERY, variables: { user_id: userId } });
  const [runId, setRunId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, create] = useMutation<{ create_strategy_from_backtest: { strategy_id: string } | null }>(FROM_BACKTEST);
  const data = useMemo(() => (result.data?.strategy_runs ?? []).map((row) => ({
    value: row.run_id, label: `${row.strategy?.name ?? 'Backtest'} · ${dateTimeText(row.started_at)}`,
  })), [result.data]);

  async function submit(): Promise<void> {
    if (runId === null) {
      setErrors({ backtest_run_id: 'Choose a complete backtest' });
      return;
    }
    const created = await create({ run: runId, name: name.trim() === '' ? null : name.trim() });
    if (created.error || !created.data?.create_strategy_from_backtest) {
      setErrors(created.error ? refusalErrors(created.error) : { general: 'No strategy was created.' });
      return;
    }
    showToast('success', 'The strategy is saved as a DRAFT with the backtest\'s settings: deploy it from the list.');
    onCreated(created.data.create_strategy_from_backtest.strategy_id);
  }

  return (
    <Stack gap="sm">
      <Select label="Backtest" placeholder={data.length === 0 && result.data ? 'You have no complete backtest' : 'Choose a complete backtest'}
        searchable data={data} value={runId} onChange={setRunId} error={errors.backtest_run_id} data-testid="create-backtest" />
      <TextInput label="Name" placeholder="Default: the backtest's name" value={name} error={errors.name} onChange={(event) => setName(event.currentTarget.value)} />
      {errors.general && <Alert color="red" role="alert">{errors.general}</Alert>}
      <Group justify="flex-end">
        <Button loading={state.fetching} onClick={() => void submit()} disabled={data.length === 0}>Create DRAFT</Button>
      </Group>
    </Stack>
  );
}

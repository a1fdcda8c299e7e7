// Picks the chart's indicator group (built-in groups and the user's own, from indicator_configs)
// and saves a new group of the user's own: a small editor of indicator rows (name, parameters,
// pane, colour) checked with the same parser the chart uses before it is sent.
import { ActionIcon, Button, ColorInput, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { indicatorNames } from '@vyuha/engine';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { useReadOnly } from '../../../app/update-mode';
import { errorMessage } from '../research/query-feedback';
import { SAVE_INDICATOR_GROUP, type IndicatorGroupRow } from './chart-queries';
import { parseIndicatorGroup, type IndicatorPane } from './indicator-groups';

interface DraftRow {
  readonly key: number;
  readonly name: string;
  readonly parameters: string;
  readonly pane: IndicatorPane;
  readonly color: string;
}

let nextRowKey = 1;
const newRow = (): DraftRow => ({ key: nextRowKey++, name: 'ema', parameters: '20', pane: 'price', color: '#228be6' });

/** The saved `indicators` value of the draft rows (parameters typed as "12, 26, 9"). */
function draftIndicators(rows: readonly DraftRow[]): unknown[] {
  return rows.map((row) => ({
    name: row.name,
    parameters: row.parameters.split(',').map((part) => part.trim()).filter((part) => part !== '').map(Number),
    pane: row.pane,
    colors: [row.color],
  }));
}

function SaveGroupModal({ opened, onClose, onSaved }: { readonly opened: boolean; readonly onClose: () => void; readonly onSaved: (row: IndicatorGroupRow) => void }) {
  const [name, setName] = useState('');
  const [rows, setRows] = useState<readonly DraftRow[]>(() => [newRow()]);
  const [, save] = useMutation<{ insert_indicator_configs_one: IndicatorGroupRow | null }>(SAVE_INDICATOR_GROUP);
  const [saving, setSaving] = useState(false);
  const indicators = draftIndicators(rows);
  const parsed = parseIndicatorGroup(indicators);
  const problems = [...(name.trim() === '' ? ['Name the group.'] : []), ...(parsed.ok ? [] : parsed.errors)];
  const update = (key: number, change: Partial<DraftRow>): void => setRows(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = async (): Promise<void> => {
    setSaving(true);
    const result = await save({ name: name.trim(), indicators });
    setSaving(false);
    const saved = result.data?.insert_indicator_configs_one;
    if (result.error !== undefined || saved === undefined || saved === null) {
      showToast('error', result.error === undefined ? 'The group was not saved' : errorMessage(result.error));
      return;
    }
    showToast('success', `Saved the indicator group ${saved.name}`);
    onSaved(saved);
    setName('');
    setRows([newRow()]);
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Save an indicator group" size="xl">
      <Stack gap="sm">
        <TextInput label="Group name" value={name} onChange={(event) => setName(event.currentTarget.value)} data-testid="indicator-group-name" />
        {rows.map((row, index) => (
          <Group key={row.key} align="flex-end" gap="xs" wrap="nowrap">
            <Select label={index === 0 ? 'Indicator' : undefined} w={150} data={[...indicatorNames()]} value={row.name} allowDeselect={false} searchable
              onChange={(value) => value !== null && update(row.key, { name: value })} aria-label={`Indicator ${index + 1}`} />
            <TextInput label={index === 0 ? 'Parameters' : undefined} w={130} value={row.parameters} placeholder="12, 26, 9"
              onChange={(event) => update(row.key, { parameters: event.currentTarget.value })} aria-label={`Parameters ${index + 1}`} />
            <SegmentedControl value={row.pane} onChange={(value) => update(row.key, { pane: value as IndicatorPane })}
              data={[{ value: 'price', label: 'Price pane' }, { value: 'own', label: 'Own pane' }]} />
            <ColorInput w={130} value={row.color} format="hex" onChange={(value) => update(row.key, { color: value })} aria-label={`Colour ${index + 1}`} />
            <ActionIcon variant="subtle" color="red" aria-label={`Remove indicator ${index + 1}`} disabled={rows.length === 1}
              onClick={() => setRows(rows.filter((entry) => entry.key !== row.key))}>×</ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="default" size="xs" onClick={() => setRows([...rows, newRow()])}>Add indicator</Button>
        </Group>
        {problems.map((problem) => <Text key={problem} size="xs" c="red">{problem}</Text>)}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={saving} disabled={problems.length > 0} data-testid="indicator-group-save">Save group</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The group picker with its "Save a group" button. */
export function IndicatorGroupControl(props: {
  readonly groups: readonly IndicatorGroupRow[];
  readonly value: string | undefined;
  readonly onChange: (groupId: string | undefined) => void;
  readonly onSaved: (row: IndicatorGroupRow) => void;
}) {
  const { groups, value, onChange, onSaved } = props;
  const readOnly = useReadOnly();
  const [editing, setEditing] = useState(false);
  const data = [
    { group: 'Built-in', items: groups.filter((row) => row.user_id === null).map((row) => ({ value: row.indicator_config_id, label: row.name })) },
    { group: 'Mine', items: groups.filter((row) => row.user_id !== null).map((row) => ({ value: row.indicator_config_id, label: row.name })) },
  ].filter((section) => section.items.length > 0);
  return (
    <Group align="flex-end" gap="xs">
      <Select label="Indicators" placeholder="None" w={200} data={data} value={value ?? null} clearable
        onChange={(next) => onChange(next ?? undefined)} data-testid="indicator-group" />
      <Button variant="default" onClick={() => setEditing(true)} disabled={readOnly}>Save a group</Button>
      <SaveGroupModal opened={editing} onClose={() => setEditing(false)} onSaved={(row) => { setEditing(false); onSaved(row); }} />
    </Group>
  );
}

// Bulk edit on /userAccounts: one column set to one value for every selected account, in one
// set_account_risk call (all accounts or none: the server's refusal names the field and the
// account, and nothing changes). Levels are typed in the unit of the first selected account's mode.
import { Alert, Button, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { parseLevel, RISK_COLUMNS, type TrailMode } from './risk-columns';
import type { RiskChanges } from './use-account-risk';

export interface BulkEditProps {
  readonly selected: number;
  /** The mode levels are typed in (the selected accounts' mode when they share one). */
  readonly mode: TrailMode | 'MIXED';
  readonly onApply: (changes: RiskChanges) => Promise<string | undefined>;
}

export function BulkEdit({ selected, mode, onApply }: BulkEditProps) {
  const [key, setKey] = useState<string>('sl');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const column = RISK_COLUMNS.find((candidate) => candidate.key === key) ?? RISK_COLUMNS[0]!;
  const apply = async (): Promise<void> => {
    let changes: RiskChanges;
    if (column.kind === 'switch') changes = { [column.key]: value === 'on' };
    else if (column.kind === 'mode') changes = { trail_mode: value === 'PERCENT' ? 'PERCENT' : 'POINTS' };
    else {
      if (mode === 'MIXED') {
        setMessage({ ok: false, text: `${column.specKey}: the selected accounts mix POINTS and PERCENT; set trail_mode for all of them first` });
        return;
      }
      const parsed = parseLevel(value, mode, column.specKey);
      if (!parsed.ok) {
        setMessage({ ok: false, text: parsed.error });
        return;
      }
      changes = { [column.key]: parsed.value };
    }
    setSaving(true);
    const refusal = await onApply(changes);
    setSaving(false);
    setMessage(refusal === undefined ? { ok: true, text: `${column.specKey} set on ${selected} account${selected === 1 ? '' : 's'}` } : { ok: false, text: refusal });
  };
  const valueField = column.kind === 'switch'
    ? <NativeSelect label="Value" w={110} data={[{ value: 'on', label: 'On' }, { value: 'off', label: 'Off' }]} value={value === 'on' ? 'on' : 'off'} onChange={(event) => setValue(event.currentTarget.value)} data-testid="bulk-value" />
    : column.kind === 'mode'
      ? <NativeSelect label="Value" w={130} data={['POINTS', 'PERCENT']} value={value === 'PERCENT' ? 'PERCENT' : 'POINTS'} onChange={(event) => setValue(event.currentTarget.value)} data-testid="bulk-value" />
      : <TextInput label={`Value (${mode === 'PERCENT' ? '%' : mode === 'POINTS' ? '₹' : 'mixed modes'})`} w={150} value={value} onChange={(event) => setValue(event.currentTarget.value)} data-testid="bulk-value" />;
  return (
    <div data-testid="bulk-edit">
      <Group align="flex-end" gap="sm">
        <Text size="sm" fw={500} pb={6}>{selected} selected</Text>
        <NativeSelect label="Column" w={160} data={RISK_COLUMNS.map((candidate) => ({ value: candidate.key, label: candidate.specKey }))} value={key}
          onChange={(event) => { setKey(event.currentTarget.value); setValue(''); setMessage(undefined); }} data-testid="bulk-column" />
        {valueField}
        <Button onClick={() => { void apply(); }} loading={saving} disabled={selected === 0} data-testid="bulk-apply">Apply to selected</Button>
      </Group>
      {message !== undefined && (
        <Alert mt="xs" color={message.ok ? 'teal' : 'red'} variant="light" data-testid={message.ok ? 'bulk-done' : 'bulk-error'}>{message.text}</Alert>
      )}
    </div>
  );
}

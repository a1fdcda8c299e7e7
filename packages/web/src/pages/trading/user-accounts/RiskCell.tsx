// One account's risk column, editable inline for those who may (a manager of the account's user, a
// superadmin): a switch flips at once; the mode is a select; a level shows its value and becomes a
// field on click, saved with Enter or the check button, left with Escape. A typed value is checked
// here first (parseLevel) and the server checks again; any refusal stays under the cell in words
// and the stored value is kept.
import { ActionIcon, Group, NativeSelect, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { levelInput, levelText, parseLevel, type AccountRisk, type LevelKey, type RiskColumn, type TrailMode } from './risk-columns';
import type { RiskChanges } from './use-account-risk';

export interface RiskCellProps {
  readonly column: RiskColumn;
  readonly risk: AccountRisk;
  readonly editable: boolean;
  /** Sends a change of this account; resolves with the refusal in words, or undefined when written. */
  readonly onChange: (changes: RiskChanges) => Promise<string | undefined>;
  /** For test ids and labels: the account's client id. */
  readonly account: string;
}

export function RiskCell({ column, risk, editable, onChange, account }: RiskCellProps) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const testId = `risk-${column.specKey}`;
  const send = async (changes: RiskChanges): Promise<boolean> => {
    setSaving(true);
    const refusal = await onChange(changes);
    setSaving(false);
    setError(refusal);
    return refusal === undefined;
  };
  const label = `${column.specKey} of ${account}`;
  let body: React.ReactNode;
  if (column.kind === 'switch') {
    const key = column.key as 'enable_sl' | 'trail_enabled' | 'enable_target';
    body = (
      <Switch size="sm" aria-label={label} checked={risk[key]} disabled={!editable || saving} data-testid={testId}
        onChange={(event) => { void send({ [key]: event.currentTarget.checked }); }} />
    );
  } else if (column.kind === 'mode') {
    body = editable ? (
      <NativeSelect size="xs" aria-label={label} data={['POINTS', 'PERCENT']} value={risk.trail_mode} disabled={saving} data-testid={testId}
        onChange={(event) => { void send({ trail_mode: event.currentTarget.value as TrailMode }); }} />
    ) : <Text size="sm" data-testid={testId}>{risk.trail_mode}</Text>;
  } else {
    const key = column.key as LevelKey;
    const save = async (): Promise<void> => {
      if (draft === undefined) return;
      const parsed = parseLevel(draft, risk.trail_mode, column.specKey);
      if (!parsed.ok) {
        setError(parsed.error);
        return;
      }
      if (await send({ [key]: parsed.value })) setDraft(undefined);
    };
    const open = (): void => { setDraft(levelInput(risk[key])); setError(undefined); };
    const interactive = editable ? {
      style: { cursor: 'pointer', textDecoration: 'underline dotted' }, onClick: open, role: 'button', 'aria-label': `Edit ${label}`, tabIndex: 0,
      onKeyDown: (event: React.KeyboardEvent) => { if (event.key === 'Enter') open(); },
    } : {};
    body = draft === undefined ? (
      <Text size="sm" ta="right" data-testid={testId} {...(risk[key] === 0 ? { c: 'dimmed' } : {})} {...interactive}>
        {levelText(risk[key], risk.trail_mode)}
      </Text>
    ) : (
      <Group gap={4} wrap="nowrap">
        <TextInput size="xs" w={96} autoFocus aria-label={label} value={draft} disabled={saving} data-testid={`${testId}-input`}
          rightSection={<Text size="xs" c="dimmed">{risk.trail_mode === 'PERCENT' ? '%' : '₹'}</Text>}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') void save();
            if (event.key === 'Escape') { setDraft(undefined); setError(undefined); }
          }} />
        <ActionIcon size="sm" variant="light" aria-label={`Save ${label}`} loading={saving} onClick={() => { void save(); }} data-testid={`${testId}-save`}>✓</ActionIcon>
      </Group>
    );
  }
  return (
    <Tooltip label={column.description} openDelay={600} withinPortal>
      <div>
        {body}
        {error !== undefined && <Text size="xs" c="red" maw={220} data-testid={`${testId}-error`}>{error}</Text>}
      </div>
    </Tooltip>
  );
}

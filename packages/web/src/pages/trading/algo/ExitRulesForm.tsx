// The document's exit rules (stop-loss, target, trailing stop) as three optional distances from
// the entry price, each with its unit; the engine's complaint about a value shows under its field.
import { Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import type { ExitDistance, ExitRules, ExitUnit } from '@vyuha/engine';
import { useState } from 'react';

const FIELDS = [['stopLoss', 'Stop-loss'], ['target', 'Target'], ['trailingStop', 'Trailing stop']] as const;
type ExitField = (typeof FIELDS)[number][0];

const UNITS = [{ value: 'points', label: 'points' }, { value: 'percent', label: '%' }];

function withField(exits: ExitRules, field: ExitField, distance: ExitDistance | undefined): ExitRules {
  const next: { -readonly [K in keyof ExitRules]: ExitDistance } = { ...exits };
  if (distance === undefined) delete next[field];
  else next[field] = distance;
  return next;
}

/** Reads a stored `exits` defensively (an invalid stored graph can carry anything there). */
export function exitRulesOf(value: unknown): ExitRules {
  if (typeof value !== 'object' || value === null) return {};
  const rules: { -readonly [K in keyof ExitRules]: ExitDistance } = {};
  for (const [field] of FIELDS) {
    const distance = (value as Record<string, unknown>)[field] as Partial<ExitDistance> | undefined;
    if (distance !== undefined && (distance.unit === 'points' || distance.unit === 'percent') && typeof distance.value === 'number') {
      rules[field] = { unit: distance.unit, value: distance.value };
    }
  }
  return rules;
}

export function ExitRulesForm(props: {
  readonly exits: ExitRules;
  readonly errors: ReadonlyMap<string, string>;
  readonly readOnly: boolean;
  readonly onChange: (exits: ExitRules) => void;
}) {
  const { exits, errors, readOnly, onChange } = props;
  // The unit picked before a value is typed (an unset rule stores nothing).
  const [units, setUnits] = useState<Readonly<Record<ExitField, ExitUnit>>>({ stopLoss: 'percent', target: 'percent', trailingStop: 'percent' });
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>Exit rules (from the entry price; empty = off)</Text>
      <Group gap="md" align="flex-start">
        {FIELDS.map(([field, label]) => {
          const distance = exits[field];
          const unit: ExitUnit = distance?.unit ?? units[field];
          return (
            <Group key={field} gap={4} align="flex-start" wrap="nowrap">
              <NumberInput size="xs" w={130} label={label} min={0} decimalScale={2} readOnly={readOnly} data-testid={`algo-exit-${field}`}
                value={distance?.value ?? ''} error={errors.get(field)}
                onChange={(value) => onChange(withField(exits, field, typeof value === 'number' ? { unit, value } : undefined))} />
              <Select size="xs" w={80} label="Unit" data={UNITS} value={unit} allowDeselect={false} readOnly={readOnly} aria-label={`${label} unit`}
                onChange={(value) => {
                  if (value !== 'points' && value !== 'percent') return;
                  setUnits({ ...units, [field]: value });
                  if (distance !== undefined) onChange(withField(exits, field, { unit: value, value: distance.value }));
                }} />
            </Group>
          );
        })}
      </Group>
    </Stack>
  );
}

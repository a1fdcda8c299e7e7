// The algorithm's `$parameters` (name, default, from, to, step) and the constraints over them
// (`$fast < $slow`): what a sweep varies and what it must respect. A rule uses a parameter by
// writing `$name` where a number goes (`sma(close, $fast)`, `rsi(close, 14) > $level`). Each
// problem shows under its field; the state and its checks live in parameters-model.ts.
import { ActionIcon, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import type { AlgorithmParameter } from '@vyuha/engine';
import {
  addConstraint, addParameter, fieldKey, numberOf, removeConstraint, removeParameter, sweepCombinations, updateConstraint, updateParameter,
  type DeclarationErrors, type Declarations, type ParameterField,
} from './parameters-model';

interface FormProps {
  readonly declarations: Declarations;
  readonly errors: DeclarationErrors;
  readonly readOnly: boolean;
  readonly onChange: (declarations: Declarations) => void;
}

const NUMBER_FIELDS: readonly { field: Exclude<ParameterField, 'name'>; label: string }[] = [
  { field: 'default', label: 'Default' }, { field: 'from', label: 'From' }, { field: 'to', label: 'To' }, { field: 'step', label: 'Step' },
];

function ParameterRow({ index, parameter, ...props }: FormProps & { readonly index: number; readonly parameter: AlgorithmParameter }) {
  const { declarations, errors, readOnly, onChange } = props;
  const change = (fields: Partial<AlgorithmParameter>): void => onChange(updateParameter(declarations, index, fields));
  return (
    <Group gap={6} align="flex-start" wrap="nowrap" data-testid={`algo-parameter-${index}`}>
      <TextInput size="xs" w={150} label="Name" leftSection={<Text size="xs" c="dimmed">$</Text>} spellCheck={false} readOnly={readOnly}
        value={parameter.name} error={errors.fields.get(fieldKey(index, 'name'))} data-testid={`algo-parameter-${index}-name`}
        onChange={(event) => change({ name: event.currentTarget.value })} />
      {NUMBER_FIELDS.map(({ field, label }) => (
        <NumberInput key={field} size="xs" w={field === 'default' ? 100 : 90} label={label} readOnly={readOnly} hideControls
          value={Number.isNaN(parameter[field]) ? '' : parameter[field]} error={errors.fields.get(fieldKey(index, field))}
          data-testid={`algo-parameter-${index}-${field}`} onChange={(value) => change({ [field]: numberOf(value) })} />
      ))}
      {!readOnly && (
        <ActionIcon mt={26} size="sm" variant="subtle" color="gray" aria-label={`Remove $${parameter.name}`} data-testid={`algo-parameter-${index}-remove`}
          onClick={() => onChange(removeParameter(declarations, index))}>
          ×
        </ActionIcon>
      )}
    </Group>
  );
}

function ConstraintRow({ index, source, ...props }: FormProps & { readonly index: number; readonly source: string }) {
  const { declarations, errors, readOnly, onChange } = props;
  const messages = errors.constraints.get(index) ?? [];
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <TextInput size="xs" w={360} ff="monospace" spellCheck={false} readOnly={readOnly} placeholder="$fast < $slow" value={source}
        aria-label={`Constraint ${index + 1}`} data-testid={`algo-constraint-${index}`}
        error={messages.length === 0 ? undefined : <span data-testid={`algo-constraint-${index}-error`}>{messages.join('; ')}</span>}
        onChange={(event) => onChange(updateConstraint(declarations, index, event.currentTarget.value))} />
      {!readOnly && (
        <ActionIcon mt={4} size="sm" variant="subtle" color="gray" aria-label={`Remove constraint ${index + 1}`} data-testid={`algo-constraint-${index}-remove`}
          onClick={() => onChange(removeConstraint(declarations, index))}>
          ×
        </ActionIcon>
      )}
    </Group>
  );
}

function GridSummary({ declarations }: { readonly declarations: Declarations }) {
  if (declarations.parameters.length === 0) {
    return <Text size="xs" c="dimmed">None. Add one, then write $name in a rule where a number goes, e.g. sma(close, $fast).</Text>;
  }
  const combinations = sweepCombinations(declarations);
  return (
    <Text size="xs" c="dimmed" data-testid="algo-parameters-grid">
      Rules read each parameter&apos;s default; a sweep runs {combinations === undefined ? 'the grid (once the errors are fixed)' : `${combinations.toLocaleString('en-IN')} combination${combinations === 1 ? '' : 's'}`}.
    </Text>
  );
}

/** The parameters and constraints section of the editor. */
export function ParametersForm(props: FormProps) {
  const { declarations, readOnly, onChange } = props;
  return (
    <Stack gap={4} data-testid="algo-parameters">
      <Text size="sm" fw={500}>Parameters (what a sweep varies)</Text>
      <GridSummary declarations={declarations} />
      {declarations.parameters.map((parameter, index) => <ParameterRow key={index} index={index} parameter={parameter} {...props} />)}
      {declarations.constraints.length > 0 && <Text size="xs" fw={500} mt={4}>Constraints (every combination a sweep runs must satisfy them)</Text>}
      {declarations.constraints.map((source, index) => <ConstraintRow key={index} index={index} source={source} {...props} />)}
      {!readOnly && (
        <Group gap="xs">
          <Button size="compact-xs" variant="light" data-testid="algo-parameter-add" onClick={() => onChange(addParameter(declarations))}>Add parameter</Button>
          {declarations.parameters.length > 0 && (
            <Button size="compact-xs" variant="light" data-testid="algo-constraint-add" onClick={() => onChange(addConstraint(declarations))}>Add constraint</Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

// The backtest form's date ranges (docs/PRODUCT.md section 3 dateRanges): several IST ranges, each with its
// own errors; an overlap (docs/PRODUCT.md section 5: "a range starts before the previous ends") shows at the
// range that overlaps. The pickers stop at the tier's earliest date and at today, and say why.
import { ActionIcon, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { isIsoDate } from '@vyuha/core';
import { rangeBefore } from './form-state';
import type { DateRangeDraft } from './form-state';
import { errorAt, errorWithin, type FieldErrors } from './field-errors';

/** The dates a range may use: the tier's earliest (and the interval that sets it) and today. */
export interface DateLimits {
  readonly earliest: { readonly date: string; readonly interval: number } | undefined;
  readonly today: string;
}

function limitsText(limits: DateLimits): string {
  const start = limits.earliest === undefined ? 'any date' : `${limits.earliest.date}, the earliest your tier may backtest at ${limits.earliest.interval}-minute candles`;
  return `IST dates, both included. From ${start}, up to today (${limits.today}). Ranges must not overlap.`;
}

interface DateRangesFieldProps {
  readonly ranges: readonly DateRangeDraft[];
  readonly onChange: (ranges: DateRangeDraft[]) => void;
  readonly errors: FieldErrors;
  readonly limits: DateLimits;
  readonly disabled: boolean;
}

/** The list of date ranges with add and remove. */
export function DateRangesField({ ranges, onChange, errors, limits, disabled }: DateRangesFieldProps) {
  const change = (index: number, update: Partial<DateRangeDraft>): void => {
    onChange(ranges.map((range, at) => (at === index ? { ...range, ...update } : range)));
  };
  const listError = errorAt(errors, 'dateRanges');
  return (
    <Input.Wrapper
      label="Date ranges" labelElement="div" description={limitsText(limits)} error={listError}
      descriptionProps={{ 'data-testid': 'bt-range-limits' }} data-testid="bt-date-ranges"
    >
      <Stack gap={6} mt={6}>
        {ranges.map((range, index) => {
          const rangeError = errorAt(errors, `dateRanges[${index}]`);
          return (
            // Ranges have no identity of their own; the position is what errors name too.
            <Stack key={index} gap={2} data-testid={`bt-range-${index}`}>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  type="date" label={index === 0 ? 'From' : undefined} aria-label={`Range ${index + 1} from`} w={170}
                  value={range.from} min={limits.earliest?.date} max={isIsoDate(range.to) ? range.to : limits.today} disabled={disabled}
                  error={errorWithin(errors, `dateRanges[${index}].from`)} data-testid={`bt-range-from-${index}`}
                  onChange={(event) => change(index, { from: event.currentTarget.value })}
                />
                <TextInput
                  type="date" label={index === 0 ? 'To' : undefined} aria-label={`Range ${index + 1} to`} w={170}
                  value={range.to} min={isIsoDate(range.from) ? range.from : limits.earliest?.date} max={limits.today} disabled={disabled}
                  error={errorWithin(errors, `dateRanges[${index}].to`)} data-testid={`bt-range-to-${index}`}
                  onChange={(event) => change(index, { to: event.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle" color="red" mt={index === 0 ? 28 : 4} aria-label={`Remove range ${index + 1}`}
                  disabled={disabled || ranges.length === 1} data-testid={`bt-remove-range-${index}`}
                  onClick={() => onChange(ranges.filter((_, at) => at !== index))}
                >
                  ×
                </ActionIcon>
              </Group>
              {rangeError !== undefined && <Text size="xs" c="red" role="alert" data-testid={`bt-range-error-${index}`}>{rangeError}</Text>}
            </Stack>
          );
        })}
        <Group>
          <Button size="xs" variant="light" disabled={disabled} data-testid="bt-add-range" onClick={() => onChange([...ranges, rangeBefore(ranges)])}>
            Add range
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

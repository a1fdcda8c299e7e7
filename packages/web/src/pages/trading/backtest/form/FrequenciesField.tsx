// The backtest form's frequencies and investments (docs/PRODUCT.md section 3): pairs of the interval the
// algorithm runs at (docs/PRODUCT.md section 9's choices) and the capital of that run in rupees (the server
// stores paise). Pairs, not two lists crossed: each pair is one run per algorithm and range.
import { ActionIcon, Button, Group, Input, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import { INTERVAL_MINUTES } from '@vyuha/market';
import { DEFAULT_INVESTMENT_RUPEES } from './form-state';
import type { FrequencyDraft } from './form-state';
import { errorAt, errorWithin, type FieldErrors } from './field-errors';

/** docs/PRODUCT.md section 9's interval choices as select options. */
export const INTERVAL_OPTIONS = INTERVAL_MINUTES.map((minutes) => ({ value: String(minutes), label: minutes === 1440 ? '1 day (1440 min)' : `${minutes} min` }));

interface FrequenciesFieldProps {
  readonly pairs: readonly FrequencyDraft[];
  readonly onChange: (pairs: FrequencyDraft[]) => void;
  readonly errors: FieldErrors;
  readonly disabled: boolean;
}

/** The list of (interval, investment) pairs with add and remove. */
export function FrequenciesField({ pairs, onChange, errors, disabled }: FrequenciesFieldProps) {
  const change = (index: number, update: Partial<FrequencyDraft>): void => {
    onChange(pairs.map((pair, at) => (at === index ? { ...pair, ...update } : pair)));
  };
  const listError = errorAt(errors, 'frequenciesAndInvestments');
  return (
    <Input.Wrapper
      label="Frequencies and investments" labelElement="div" error={listError} data-testid="bt-frequencies"
      description="Each pair is one run per algorithm and date range: the candle interval the algorithm runs at and the capital of that run."
    >
      <Stack gap={6} mt={6}>
        {pairs.map((pair, index) => {
          const pairError = errorAt(errors, `frequenciesAndInvestments[${index}]`);
          return (
            // Pairs have no identity of their own; the position is what errors name too.
            <Stack key={index} gap={2} data-testid={`bt-pair-${index}`}>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <NativeSelect
                  label={index === 0 ? 'Interval' : undefined} aria-label={`Pair ${index + 1} interval`} w={150}
                  data={INTERVAL_OPTIONS} value={String(pair.interval)} disabled={disabled}
                  error={errorWithin(errors, `frequenciesAndInvestments[${index}].interval`)} data-testid={`bt-interval-${index}`}
                  onChange={(event) => change(index, { interval: Number(event.currentTarget.value) })}
                />
                <NumberInput
                  label={index === 0 ? 'Investment (₹)' : undefined} aria-label={`Pair ${index + 1} investment in rupees`} w={200}
                  value={pair.investmentRupees} min={0} decimalScale={2} thousandSeparator="," prefix="₹ " disabled={disabled}
                  error={errorWithin(errors, `frequenciesAndInvestments[${index}].investment`)} data-testid={`bt-investment-${index}`}
                  onChange={(value) => change(index, { investmentRupees: value })}
                />
                <ActionIcon
                  variant="subtle" color="red" mt={index === 0 ? 28 : 4} aria-label={`Remove pair ${index + 1}`}
                  disabled={disabled || pairs.length === 1} data-testid={`bt-remove-pair-${index}`}
                  onClick={() => onChange(pairs.filter((_, at) => at !== index))}
                >
                  ×
                </ActionIcon>
              </Group>
              {pairError !== undefined && <Text size="xs" c="red" role="alert" data-testid={`bt-pair-error-${index}`}>{pairError}</Text>}
            </Stack>
          );
        })}
        <Group>
          <Button
            size="xs" variant="light" disabled={disabled} data-testid="bt-add-pair"
            onClick={() => onChange([...pairs, { interval: pairs[pairs.length - 1]?.interval ?? 5, investmentRupees: DEFAULT_INVESTMENT_RUPEES * (pairs.length + 1) }])}
          >
            Add pair
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

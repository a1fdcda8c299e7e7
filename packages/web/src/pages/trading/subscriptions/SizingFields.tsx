// The sizing part of the subscribe and edit forms: quantity (units, or lots of a contract traded
// in lots) or investment (rupees, all-in), with each field's problem under it.
import { NumberInput, SegmentedControl, Stack } from '@mantine/core';
import { rupeesFieldToPaise } from '../../../format/money-input';
import { checkSizing, type SizingKind } from './subscription-model';

export interface SizingDraft {
  readonly sizing: SizingKind;
  readonly quantity: string | number;
  readonly investment: string | number;
}

/** The draft as numbers, with its problems; `valid` when it can be sent. */
export function readSizing(draft: SizingDraft): { quantity: number | undefined; investmentPaise: number | undefined; issues: ReturnType<typeof checkSizing>; valid: boolean } {
  const quantity = typeof draft.quantity === 'number' ? draft.quantity : Number.parseInt(draft.quantity, 10);
  const amount = rupeesFieldToPaise(draft.investment);
  const investmentPaise = amount.ok ? amount.value : undefined;
  const issues = {
    ...checkSizing({ sizing: draft.sizing, quantity: Number.isNaN(quantity) ? undefined : quantity, investmentPaise }),
    ...(amount.ok ? {} : { investment: `Investment ${amount.error}` }),
  };
  return { quantity: Number.isNaN(quantity) ? undefined : quantity, investmentPaise, issues, valid: Object.keys(issues).length === 0 };
}

export function SizingFields({ draft, onChange }: { readonly draft: SizingDraft; readonly onChange: (draft: SizingDraft) => void }) {
  const { issues } = readSizing(draft);
  return (
    <Stack gap="sm">
      <SegmentedControl<SizingKind>
        aria-label="Sizing"
        value={draft.sizing}
        onChange={(sizing) => onChange({ ...draft, sizing })}
        data={[{ value: 'quantity', label: 'Quantity' }, { value: 'investment', label: 'Investment' }]}
      />
      {draft.sizing === 'quantity' ? (
        <NumberInput
          label="Quantity"
          description="Units of a stock, or lots of a future or option, on every entry"
          min={1}
          step={1}
          allowDecimal={false}
          value={draft.quantity}
          onChange={(quantity) => onChange({ ...draft, quantity })}
          error={issues.quantity}
          required
        />
      ) : (
        <NumberInput
          label="Investment (₹)"
          description="Each entry takes as much as this buys (all-in, charges included)"
          min={0}
          decimalScale={2}
          thousandSeparator=","
          value={draft.investment}
          onChange={(investment) => onChange({ ...draft, investment })}
          error={issues.investment}
          required
        />
      )}
    </Stack>
  );
}

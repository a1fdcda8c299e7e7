// What a backtest trades (docs/PRODUCT.md section 3 tradeInstrumentsConfig): the instrument (an index as its
// near-month future, a stock as shares: traded-instrument.ts says which, and refuses an index
// without futures), or option legs on an index (the engine's OptionsLegsConfig): per entry signal
// a list of CE/PE legs, each bought or sold, with its strike rule, expiry, lots, stop, target,
// trailing stop and re-entry, and the day's limits. The engine's validation error shows at the
// control it names.
import { ActionIcon, Button, Group, Input, NativeSelect, NumberInput, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { EXPIRY_CHOICES } from '@vyuha/engine';
import { OPTION_UNDERLYINGS } from '@vyuha/market';
import { errorAt, errorWithin, type FieldErrors } from './field-errors';
import { newLeg } from './legs-draft';
import type { DistanceDraft, DistanceUnit, LegDraft, LegSignal, ReEntryMode, StrikeBy, TradeDraft, TradeMode } from './legs-draft';
import type { TradedDescription } from './traded-instrument';

const STRIKE_LABELS: Record<StrikeBy, string> = { 'atm-offset': 'Steps from ATM', premium: 'Premium (₹)', delta: 'Delta (0-1)' };
const STRIKE_OPTIONS = [{ value: 'atm-offset', label: 'ATM offset' }, { value: 'premium', label: 'Premium' }, { value: 'delta', label: 'Delta' }];
const EXPIRY_LABELS: Record<string, string> = { 'current-weekly': 'Current weekly', 'next-weekly': 'Next weekly', monthly: 'Monthly' };
const UNIT_OPTIONS = [{ value: 'none', label: 'Off' }, { value: 'points', label: 'Points' }, { value: 'percent', label: '%' }];
const RE_ENTRY_OPTIONS = [{ value: 'none', label: 'No re-entry' }, { value: 'asap', label: 'ASAP' }, { value: 'at-cost', label: 'At cost' }];
const SIGNAL_TITLES: Record<LegSignal, string> = { onBuy: 'Legs opened by a BUY signal', onSell: 'Legs opened by a SELL signal' };

interface DistanceInputProps {
  readonly label: string;
  readonly distance: DistanceDraft;
  readonly onChange: (distance: DistanceDraft) => void;
  readonly invalid: boolean;
  readonly disabled: boolean;
  readonly testId: string;
}

/** A stop, target or trailing distance: off, points or percent, and its value. */
function DistanceInput({ label, distance, onChange, invalid, disabled, testId }: DistanceInputProps) {
  return (
    <Group gap={4} align="flex-start" wrap="nowrap">
      <NativeSelect
        label={label} w={110} data={UNIT_OPTIONS} value={distance.unit} disabled={disabled} data-testid={`${testId}-unit`}
        onChange={(event) => onChange({ ...distance, unit: event.currentTarget.value as DistanceUnit })}
      />
      <NumberInput
        label=" " aria-label={`${label} value`} w={90} value={distance.value} min={0} decimalScale={2} error={invalid || undefined}
        disabled={disabled || distance.unit === 'none'} data-testid={testId}
        onChange={(value) => onChange({ ...distance, value })}
      />
    </Group>
  );
}

/** The controls of a leg by the engine's field names under the leg, with the words the form shows. */
const LEG_CONTROL_LABELS: ReadonlyArray<readonly [field: string, label: string]> = [
  ['option', 'Option'], ['side', 'Side'], ['strike.by', 'Strike by'], ['strike', 'Strike'], ['expiry', 'Expiry'], ['lots', 'Lots'],
  ['stopLoss', 'Stop loss'], ['target', 'Target'], ['trailingStop', 'Trailing stop'], ['reEntry.maxTimes', 'Re-entry times'], ['reEntry', 'Re-entry'],
];

/** True when `field` (under a leg) is `control` or inside it. */
function isWithin(field: string, control: string): boolean {
  return field === control || field.startsWith(`${control}.`) || field.startsWith(`${control}[`);
}

/** The leg's first problem: the control it belongs to (the most specific one) and its message. */
function legProblem(errors: FieldErrors, path: string): { readonly control: string | undefined; readonly text: string } | undefined {
  for (const [key, message] of errors) {
    if (key !== path && !key.startsWith(`${path}.`)) continue;
    const field = key.slice(path.length + 1);
    const control = LEG_CONTROL_LABELS.find(([name]) => isWithin(field, name));
    return { control: control?.[0], text: control === undefined ? message : `${control[1]}: ${message}` };
  }
  return undefined;
}

interface LegRowProps {
  readonly leg: LegDraft;
  /** The leg's form path, e.g. `tradeInstrumentsConfig.onBuy[0]`. */
  readonly path: string;
  readonly testId: string;
  readonly onChange: (leg: LegDraft) => void;
  readonly onRemove: () => void;
  readonly errors: FieldErrors;
  readonly disabled: boolean;
}

/** One leg: its controls in a row, the control at fault marked, and the message under the row. */
function LegRow({ leg, path, testId, onChange, onRemove, errors, disabled }: LegRowProps) {
  const set = (update: Partial<LegDraft>): void => onChange({ ...leg, ...update });
  const problem = legProblem(errors, path);
  const invalid = (control: string): true | undefined => (problem?.control === control ? true : undefined);
  const distance = (field: 'stopLoss' | 'target' | 'trailingStop', label: string) => (
    <DistanceInput
      label={label} distance={leg[field]} onChange={(value) => set({ [field]: value })} invalid={invalid(field) === true}
      disabled={disabled} testId={`${testId}-${field}`}
    />
  );
  return (
    <Paper withBorder p="xs" data-testid={testId}>
      <Group gap="xs" align="flex-start">
        <NativeSelect label="Option" w={80} data={['CE', 'PE']} value={leg.option} disabled={disabled} error={invalid('option')}
          data-testid={`${testId}-option`} onChange={(event) => set({ option: event.currentTarget.value as LegDraft['option'] })} />
        <NativeSelect label="Side" w={90} data={[{ value: 'buy', label: 'Buy' }, { value: 'sell', label: 'Sell' }]} value={leg.side} disabled={disabled}
          error={invalid('side')} data-testid={`${testId}-side`} onChange={(event) => set({ side: event.currentTarget.value as LegDraft['side'] })} />
        <NativeSelect label="Strike by" w={120} data={STRIKE_OPTIONS} value={leg.strikeBy} disabled={disabled} error={invalid('strike.by')}
          data-testid={`${testId}-strike-by`}
          onChange={(event) => set({ strikeBy: event.currentTarget.value as StrikeBy, strikeValue: event.currentTarget.value === 'delta' ? 0.5 : 0 })} />
        <NumberInput label={STRIKE_LABELS[leg.strikeBy]} w={130} value={leg.strikeValue} decimalScale={leg.strikeBy === 'atm-offset' ? 0 : 2} disabled={disabled}
          error={invalid('strike')} data-testid={`${testId}-strike`} onChange={(value) => set({ strikeValue: value })} />
        <NativeSelect label="Expiry" w={160} data={EXPIRY_CHOICES.map((choice) => ({ value: choice, label: EXPIRY_LABELS[choice] ?? choice }))} value={leg.expiry}
          disabled={disabled} error={invalid('expiry')} data-testid={`${testId}-expiry`}
          onChange={(event) => set({ expiry: event.currentTarget.value as LegDraft['expiry'] })} />
        <NumberInput label="Lots" w={90} value={leg.lots} min={1} decimalScale={0} disabled={disabled} error={invalid('lots')}
          data-testid={`${testId}-lots`} onChange={(value) => set({ lots: value })} />
        {distance('stopLoss', 'Stop loss')}
        {distance('target', 'Target')}
        {distance('trailingStop', 'Trailing stop')}
        <NativeSelect label="Re-entry" w={130} data={RE_ENTRY_OPTIONS} value={leg.reEntry} disabled={disabled} error={invalid('reEntry')}
          data-testid={`${testId}-reentry`} onChange={(event) => set({ reEntry: event.currentTarget.value as ReEntryMode })} />
        <NumberInput label="Times" w={80} value={leg.reEntryTimes} min={1} decimalScale={0} disabled={disabled || leg.reEntry === 'none'}
          error={invalid('reEntry.maxTimes')} data-testid={`${testId}-reentry-times`} onChange={(value) => set({ reEntryTimes: value })} />
        <ActionIcon variant="subtle" color="red" mt={28} aria-label="Remove leg" disabled={disabled} data-testid={`${testId}-remove`} onClick={onRemove}>×</ActionIcon>
      </Group>
      {problem !== undefined && <Text size="xs" c="red" role="alert" mt={4} data-testid={`${testId}-error`}>{problem.text}</Text>}
    </Paper>
  );
}

interface LegListProps {
  readonly signal: LegSignal;
  readonly draft: TradeDraft;
  readonly onChange: (draft: TradeDraft) => void;
  readonly errors: FieldErrors;
  readonly disabled: boolean;
}

function LegList({ signal, draft, onChange, errors, disabled }: LegListProps) {
  const legs = draft[signal];
  const setLegs = (next: LegDraft[]): void => onChange({ ...draft, [signal]: next });
  const listError = errorAt(errors, `tradeInstrumentsConfig.${signal}`);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>{SIGNAL_TITLES[signal]}</Text>
      {legs.length === 0 && <Text size="xs" c="dimmed">No legs: this signal opens nothing.</Text>}
      {legs.map((leg, index) => (
        <LegRow
          // Legs have no identity of their own; the position is what errors name too.
          key={index} leg={leg} path={`tradeInstrumentsConfig.${signal}[${index}]`} testId={`bt-leg-${signal}-${index}`} errors={errors} disabled={disabled}
          onChange={(next) => setLegs(legs.map((item, at) => (at === index ? next : item)))}
          onRemove={() => setLegs(legs.filter((_, at) => at !== index))}
        />
      ))}
      {listError !== undefined && <Text size="xs" c="red" role="alert">{listError}</Text>}
      <Group>
        <Button size="xs" variant="light" disabled={disabled} data-testid={`bt-add-leg-${signal}`} onClick={() => setLegs([...legs, newLeg()])}>Add leg</Button>
      </Group>
    </Stack>
  );
}

interface TradeFieldProps {
  readonly draft: TradeDraft;
  readonly onChange: (draft: TradeDraft) => void;
  readonly errors: FieldErrors;
  /** The instrument's trading symbol, when one is chosen. */
  readonly underlying: string | undefined;
  readonly optionable: boolean;
  readonly disabled: boolean;
  /** What trading the instrument means for the one chosen (undefined before one is). */
  readonly traded: TradedDescription | undefined;
}

/** The trade section of the form: the instrument (its future, or shares), or option legs with their limits. */
export function TradeField({ draft, onChange, errors, underlying, optionable, disabled, traded }: TradeFieldProps) {
  const fieldError = errorAt(errors, 'tradeInstrumentsConfig') ?? errorAt(errors, 'tradeInstrumentsConfig.underlying');
  const limit = (field: 'maxEntriesPerDay' | 'dailyMaxLossRupees' | 'dailyMaxProfitRupees') => ({
    value: draft[field], disabled, error: errorWithin(errors, `tradeInstrumentsConfig.${field}`), 'data-testid': `bt-${field}`,
    onChange: (value: number | string) => onChange({ ...draft, [field]: value }),
  });
  return (
    <Stack gap={6} data-testid="bt-trade">
      <Input.Label component="div">Trade</Input.Label>
      <SegmentedControl
        w="fit-content" value={draft.mode} disabled={disabled} data-testid="bt-trade-mode"
        data={[{ value: 'instrument', label: traded?.label ?? 'The instrument' }, { value: 'options', label: 'Option legs', disabled: !optionable && draft.mode !== 'options' }]}
        onChange={(value) => onChange({ ...draft, mode: value as TradeMode })}
      />
      {draft.mode === 'instrument' && traded !== undefined && (
        <Text size="xs" {...(traded.ok ? { c: 'dimmed' } : { c: 'red', role: 'alert' })} data-testid="bt-trade-description">{traded.ok ? traded.text : traded.error}</Text>
      )}
      {!optionable && (
        <Text size="xs" c="dimmed">
          Option legs trade the options of an index with listed options ({OPTION_UNDERLYINGS.join(', ')}){underlying === undefined ? '' : `; ${underlying} has none`}.
        </Text>
      )}
      {fieldError !== undefined && <Text size="xs" c="red" role="alert" data-testid="bt-trade-error">{fieldError}</Text>}
      {draft.mode === 'options' && (
        <Stack gap="sm">
          <LegList signal="onBuy" draft={draft} onChange={onChange} errors={errors} disabled={disabled} />
          <LegList signal="onSell" draft={draft} onChange={onChange} errors={errors} disabled={disabled} />
          <Group gap="xs" align="flex-start">
            <NumberInput label="Entries per day" w={140} min={1} decimalScale={0} {...limit('maxEntriesPerDay')} />
            <NumberInput label="Daily max loss (₹)" w={170} min={0} decimalScale={2} thousandSeparator="," {...limit('dailyMaxLossRupees')} />
            <NumberInput label="Daily max profit (₹)" w={170} min={0} decimalScale={2} thousandSeparator="," {...limit('dailyMaxProfitRupees')} />
            <NativeSelect
              label="Weekly expiry missing" w={220} value={draft.weeklyFallback} disabled={disabled} data-testid="bt-weekly-fallback"
              data={[{ value: 'none', label: 'Stop with an error' }, { value: 'monthly', label: 'Take the monthly' }]}
              error={errorAt(errors, 'tradeInstrumentsConfig.weeklyFallback')}
              onChange={(event) => onChange({ ...draft, weeklyFallback: event.currentTarget.value as TradeDraft['weeklyFallback'] })}
            />
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

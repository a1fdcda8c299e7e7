// The form that adds a leg to the payoff positions: index, expiry (listed expiries from
// fno_expiries, else the exchange's rules: payoff-expiries.ts), strike (ATM from the index's one
// last price, parts/use-last-prices.ts), CE/PE or FUT (the index future of that expiry, whose lot
// is the options' lot), buy/sell, lots and the premium (or futures price) paid or received.
import { Alert, Button, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import type { OptionRight, PayoffPosition } from '@vyuha/engine';
import { atmStrike } from '@vyuha/market';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { istToday } from '../../../format/date-ranges';
import { lastPriceText, type LastPrice } from '../parts/use-last-prices';
import { expiryNote, lotSizeOf, ruleExpiries } from './payoff-expiries';
import { QueryError } from './query-feedback';

/** An index the payoff screen offers (an index_configs row). */
export interface PayoffIndex {
  readonly id: string;
  readonly name: string;
  /** The trading symbol (NIFTY, BANKNIFTY...). */
  readonly value: string;
  readonly oc_step: number;
  readonly instrument_id: number;
}

const EXPIRIES_QUERY = `
  query PayoffExpiries($instrument_id: Int!, $today: date!) {
    fno_expiries(where: { instrument_id: { _eq: $instrument_id }, segment: { _eq: "OPT" }, expiry: { _gte: $today } }, order_by: { expiry: asc }, limit: 20) {
      expiry mode
    }
  }`;

export interface PayoffLegFormProps {
  readonly indices: readonly PayoffIndex[];
  /** The indices' last prices by instrument id (useLastPrices). */
  readonly lastPrices: ReadonlyMap<number, LastPrice>;
  /** `replace`: the leg replaces every position of its index. */
  readonly onAdd: (position: PayoffPosition, replace: boolean) => void;
}

/** The selected index's last price, or why there is none. */
function LastPriceLine({ index, price }: { readonly index: PayoffIndex; readonly price: LastPrice | undefined }) {
  if (price === undefined) return <Text size="xs" c="dimmed" data-testid="payoff-last-price">No last price for {index.name} yet: no candles are stored for it.</Text>;
  return <Text size="xs" c="dimmed" data-testid="payoff-last-price">{index.name} last price {lastPriceText(price)}</Text>;
}

export function PayoffLegForm({ indices, lastPrices, onAdd }: PayoffLegFormProps) {
  const today = useMemo(() => istToday(), []);
  const [indexId, setIndexId] = useState<string | null>(null);
  const index = indices.find((row) => row.id === indexId) ?? indices[0];
  const [expiry, setExpiry] = useState<string | null>(null);
  const [strike, setStrike] = useState<number | string>('');
  const [optionType, setOptionType] = useState<OptionRight | 'FUT'>('CE');
  const [side, setSide] = useState<'Buy' | 'Sell'>('Buy');
  const [lots, setLots] = useState<number | string>(1);
  const [premium, setPremium] = useState<number | string>('');
  const [replace, setReplace] = useState(false);

  const [listed] = useQuery<{ fno_expiries: Array<{ expiry: string; mode: string }> }>({
    query: EXPIRIES_QUERY, variables: { instrument_id: index?.instrument_id ?? 0, today }, pause: index === undefined,
  });
  const listedExpiries = (listed.data?.fno_expiries ?? []).map((row) => ({ date: row.expiry, kind: row.mode }));
  const fromRules = listed.data !== undefined && listedExpiries.length === 0;
  const expiries = fromRules && index !== undefined ? ruleExpiries(index.value, today) : listedExpiries;
  const chosenExpiry = expiries.some((option) => option.date === expiry) ? expiry : expiries[0]?.date ?? null;
  const lot = index === undefined ? undefined : lotSizeOf(index.value, today, chosenExpiry);
  const price = index === undefined ? undefined : lastPrices.get(index.instrument_id);
  const spot = price?.rupees;
  const note = index === undefined || listed.data === undefined ? undefined : expiryNote({ indexName: index.name, fromRules, offered: expiries.length });
  const atm = spot !== undefined && index !== undefined ? atmStrike(spot, index.oc_step) : undefined;
  const strikeValue = typeof strike === 'number' ? strike : atm;
  const lotsValue = typeof lots === 'number' ? lots : Number.NaN;
  const premiumValue = typeof premium === 'number' ? premium : Number.NaN;
  const future = optionType === 'FUT';
  const valid = index !== undefined && chosenExpiry !== null && lot !== undefined && (future || (strikeValue !== undefined && strikeValue > 0))
    && Number.isInteger(lotsValue) && lotsValue > 0 && Number.isFinite(premiumValue) && premiumValue >= 0;

  const add = (): void => {
    if (!valid) return;
    const quantity = (side === 'Buy' ? 1 : -1) * lotsValue * lot;
    const common = { expiry: chosenExpiry, quantity, entryPrice: premiumValue, indice: index.name, timestamp: Date.now() };
    if (optionType === 'FUT') onAdd({ kind: 'future', ...common }, replace);
    else if (strikeValue !== undefined) onAdd({ kind: 'option', optionType, strike: strikeValue, ...common }, replace);
  };

  return (
    <Stack gap="sm">
      <QueryError error={listed.error} title="Could not load the expiries" />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select label="Index" w={170} allowDeselect={false} data-testid="payoff-index" data={indices.map((row) => ({ value: row.id, label: row.name }))}
          value={index?.id ?? null} onChange={(value) => { setIndexId(value); setExpiry(null); setStrike(''); }} />
        <Select label="Expiry" w={200} allowDeselect={false} value={chosenExpiry} onChange={setExpiry} data-testid="payoff-expiry"
          data={expiries.map((option) => ({ value: option.date, label: `${option.date} (${option.kind})` }))} />
        <NumberInput hideControls label="Strike" w={130} min={0} step={index?.oc_step ?? 50} value={strike} placeholder={atm === undefined ? '' : String(atm)} onChange={setStrike}
          disabled={future} data-testid="payoff-strike" />
        <SegmentedControl data={['CE', 'PE', 'FUT']} value={optionType} onChange={(value) => setOptionType(value as OptionRight | 'FUT')} aria-label="Contract"
          data-testid="payoff-contract" />
        <SegmentedControl data={['Buy', 'Sell']} value={side} onChange={(value) => setSide(value as 'Buy' | 'Sell')} aria-label="Side" data-testid="payoff-side"
          color={side === 'Buy' ? 'teal' : 'red'} />
        <NumberInput hideControls label="Lots" w={90} min={1} step={1} allowDecimal={false} value={lots} onChange={setLots} data-testid="payoff-lots" />
        <NumberInput hideControls label={future ? 'Price (₹)' : 'Premium (₹ per unit)'} w={170} min={0} decimalScale={2} value={premium} onChange={setPremium}
          data-testid="payoff-premium" />
        <Button onClick={add} disabled={!valid} data-testid="payoff-add">{replace ? 'Replace' : 'Add leg'}</Button>
      </Group>
      <Group gap="md">
        <Switch checked={replace} onChange={(event) => setReplace(event.currentTarget.checked)} data-testid="payoff-replace"
          label={`Replace the saved ${index?.name ?? ''} positions with this leg`} />
        {lot !== undefined && <Text size="xs" c="dimmed">Lot size {lot}{atm === undefined ? '' : ` · ATM strike ${atm}`}</Text>}
      </Group>
      {index !== undefined && <LastPriceLine index={index} price={price} />}
      {note !== undefined && (note.tone === 'info'
        ? <Text size="xs" c="dimmed" data-testid="payoff-expiry-note">{note.text}</Text>
        : <Alert color="yellow" variant="light" data-testid="payoff-expiry-note">{note.text}</Alert>)}
      {index !== undefined && chosenExpiry !== null && lot === undefined && (
        <Alert color="yellow" variant="light">No lot size is known for {index.name} on this expiry.</Alert>
      )}
    </Stack>
  );
}

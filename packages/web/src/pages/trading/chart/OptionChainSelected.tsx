// The "Selected" list under the option chain: each picked contract with its side, a lots input
// (whole lots; the store says why a value is refused), its remove button, the selection's net
// greeks at the chain's moment, and "Open in payoff", which replaces this index's payoff
// positions with the selection (entry price = the chain's LTP) and opens /payoff.
import { ActionIcon, Badge, Button, Group, NumberInput, Paper, Table, Text } from '@mantine/core';
import { replacePositionsForIndex } from '@vyuha/engine';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { visibleMenu } from '../../../app/menu';
import { useAuthState } from '../../../auth/auth-service';
import { formatRupees, formatRupeesAmount } from '../../../format/format';
import { useAppStore } from '../../../stores/app-store';
import { loadPositions, PAYOFF_STORAGE_KEY } from '../research/payoff-store';
import { selectionGreeks, toPayoffPositions, useOptionSelectionStore, type QuoteLookup, type SelectedOption } from './option-chain-selection';

const NO_SELECTION: readonly SelectedOption[] = [];

/** The underlying's selection from the store (a stable empty list when there is none). */
export function useSelection(underlying: string): readonly SelectedOption[] {
  return useOptionSelectionStore((state) => state.byUnderlying[underlying] ?? NO_SELECTION);
}

function QuantityInput({ underlying, item }: { readonly underlying: string; readonly item: SelectedOption }) {
  const lots = Math.abs(item.quantity) / item.lotSize;
  const [draft, setDraft] = useState<number | string>(lots);
  const [error, setError] = useState<string | undefined>(undefined);
  const update = useOptionSelectionStore((state) => state.updateQuantity);
  // A quantity changed elsewhere (another Buy or Sell of the contract) shows here.
  useEffect(() => {
    setDraft(lots);
    setError(undefined);
  }, [lots]);
  const change = (value: number | string): void => {
    setDraft(value);
    if (typeof value !== 'number') {
      setError('Enter a whole number of lots');
      return;
    }
    setError(update(underlying, item.tradingSymbol, Math.sign(item.quantity) * value * item.lotSize));
  };
  return (
    <NumberInput size="xs" w={110} min={1} value={draft} onChange={change} error={error} aria-label={`Lots of ${item.tradingSymbol}`}
      data-testid={`oc-selected-qty-${item.tradingSymbol}`} />
  );
}

const fixed = (value: number, digits: number): string => value.toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function NetGreeksLine({ selection, at, spot, quote }: { readonly selection: readonly SelectedOption[]; readonly at: number; readonly spot: number; readonly quote: QuoteLookup }) {
  const greeks = selectionGreeks(selection, { at, spot, quote });
  if (greeks === undefined) return null;
  // Premium: what opening the selection at the chain's LTPs pays (negative) or receives (positive).
  const premiumPaise = selection.reduce((sum, item) => sum - item.quantity * (quote(item)?.ltpPaise ?? item.ltpPaise), 0);
  return (
    <Group gap="md" data-testid="oc-net-greeks" fz="sm">
      <Text size="sm" fw={500}>Net greeks</Text>
      <Text size="sm" data-greek="delta">Delta {fixed(greeks.delta, 2)}</Text>
      <Text size="sm" data-greek="gamma">Gamma {fixed(greeks.gamma, 4)}</Text>
      <Text size="sm" data-greek="theta">Theta {formatRupeesAmount(greeks.theta)}/day</Text>
      <Text size="sm" data-greek="vega">Vega {formatRupeesAmount(greeks.vega)}/vol pt</Text>
      <Text size="sm">Premium {premiumPaise >= 0 ? 'received' : 'paid'} {formatRupees(Math.abs(premiumPaise))}</Text>
    </Group>
  );
}

function usePayoffAllowed(): boolean {
  const role = useAuthState((snapshot) => snapshot.context.role);
  const exchange = useAppStore((state) => state.timeZone?.exchange);
  const actingForUser = useAppStore((state) => state.managedUserId !== undefined);
  return visibleMenu({ role, exchange, actingForUser }).some((entry) => entry.path === '/payoff');
}

export interface OptionChainSelectedProps {
  readonly underlying: string;
  /** The index's name: the payoff positions' "indice". */
  readonly indice: string;
  readonly at: number;
  readonly spot: number;
  readonly quote: QuoteLookup;
}

export function OptionChainSelected({ underlying, indice, at, spot, quote }: OptionChainSelectedProps) {
  const selection = useSelection(underlying);
  const remove = useOptionSelectionStore((state) => state.remove);
  const payoffAllowed = usePayoffAllowed();
  const navigate = useNavigate();
  const openInPayoff = (): void => {
    const positions = toPayoffPositions(selection, { indice, timestamp: Date.now(), quote });
    try {
      sessionStorage.setItem(PAYOFF_STORAGE_KEY, JSON.stringify(replacePositionsForIndex(loadPositions(), indice, positions)));
    } catch {
      // Without storage the payoff screen cannot receive the positions; it opens empty.
    }
    void navigate('/payoff');
  };
  return (
    <Paper withBorder p="xs" mt="sm" data-testid="oc-selected">
      <Group justify="space-between" mb={4}>
        <Text fw={500} size="sm">Selected</Text>
        {payoffAllowed && (
          <Button size="compact-sm" variant="light" disabled={selection.length === 0} onClick={openInPayoff} data-testid="oc-open-payoff">Open in payoff</Button>
        )}
      </Group>
      {selection.length === 0 ? <Text size="sm" c="dimmed">Buy or sell a strike above to build a position.</Text> : (
        <>
          <Table fz="sm" verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr><Table.Th>Contract</Table.Th><Table.Th>Side</Table.Th><Table.Th>Lots</Table.Th><Table.Th>Quantity</Table.Th><Table.Th>LTP</Table.Th><Table.Th /></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {selection.map((item) => (
                <Table.Tr key={item.tradingSymbol} data-testid="oc-selected-row" data-symbol={item.tradingSymbol} data-quantity={item.quantity}>
                  <Table.Td>{item.tradingSymbol}</Table.Td>
                  <Table.Td><Badge size="sm" variant="light" color={item.quantity > 0 ? 'teal' : 'red'}>{item.quantity > 0 ? 'Buy' : 'Sell'}</Badge></Table.Td>
                  <Table.Td><QuantityInput underlying={underlying} item={item} /></Table.Td>
                  <Table.Td>{Math.abs(item.quantity).toLocaleString('en-IN')} ({item.lotSize} a lot)</Table.Td>
                  <Table.Td>{formatRupees(quote(item)?.ltpPaise ?? item.ltpPaise)}</Table.Td>
                  <Table.Td>
                    <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Remove ${item.tradingSymbol}`} onClick={() => remove(underlying, item.tradingSymbol)}
                      data-testid={`oc-selected-remove-${item.tradingSymbol}`}>×</ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <NetGreeksLine selection={selection} at={at} spot={spot} quote={quote} />
        </>
      )}
    </Paper>
  );
}

// The preview before placing: each leg's price (and where it came from), value and charges (the
// engine's model, as the fill will be charged), the total charges, the margin estimate with what
// it counts in words, and the payoff of the option legs (basket-payoff.ts).
import { Alert, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { formatRupees, formatRupeesAmount } from '../../../format/format';
import type { BasketPreviewData } from './basket-documents';
import { basketPayoff } from './basket-payoff';
import { BasketPayoffChart } from './BasketPayoffChart';

function Figure({ label, value, testId }: { readonly label: string; readonly value: string; readonly testId?: string }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={600} data-testid={testId}>{value}</Text>
    </Paper>
  );
}

function boundText(bound: number | 'unlimited'): string {
  return bound === 'unlimited' ? 'Unlimited' : formatRupeesAmount(bound);
}

function PayoffSection({ preview, pricedAt }: { readonly preview: BasketPreviewData; readonly pricedAt: number }) {
  const payoff = useMemo(() => basketPayoff(preview.legs, pricedAt), [preview, pricedAt]);
  if (payoff === undefined) return <Text size="sm" c="dimmed">No option leg: no payoff to preview.</Text>;
  return (
    <Stack gap="xs" data-testid="basket-payoff">
      <Text size="sm">
        Payoff of legs {payoff.legIndexes.map((index) => index + 1).join(', ')} ({payoff.underlying}, expiry {payoff.expiry}) with {payoff.underlying} at {payoff.spot.toLocaleString('en-IN')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <Figure label="Break-evens" value={payoff.breakevens.length === 0 ? 'None' : payoff.breakevens.map((level) => level.toLocaleString('en-IN', { maximumFractionDigits: 2 })).join(', ')} />
        <Figure label="Max profit at expiry" value={boundText(payoff.bounds.maxProfit)} />
        <Figure label="Max loss at expiry" value={boundText(payoff.bounds.maxLoss)} />
      </SimpleGrid>
      <BasketPayoffChart points={payoff.points} />
    </Stack>
  );
}

export function BasketPreviewPanel({ preview, pricedAt }: { readonly preview: BasketPreviewData; readonly pricedAt: number }) {
  return (
    <Stack gap="sm" data-testid="basket-preview">
      <Title order={4}>Preview (prices of {preview.trade_date})</Title>
      <Table.ScrollContainer minWidth={720}>
        <Table fz="sm" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr><Table.Th>#</Table.Th><Table.Th>Leg</Table.Th><Table.Th>Units</Table.Th><Table.Th>Price</Table.Th><Table.Th>Priced by</Table.Th><Table.Th>Value</Table.Th><Table.Th>Charges</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.legs.map((leg) => (
              <Table.Tr key={leg.index} data-testid="basket-preview-leg" data-price={leg.price_paise} data-quantity={leg.quantity} data-side={leg.side} data-kind={leg.kind}
                data-date={preview.trade_date}>
                <Table.Td>{leg.index + 1}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{leg.side} {leg.symbol}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{leg.quantity.toLocaleString('en-IN')}{leg.kind === 'equity' ? '' : ` (${leg.quantity / leg.lot_size} × ${leg.lot_size})`}</Table.Td>
                <Table.Td>{formatRupees(leg.price_paise)}</Table.Td>
                <Table.Td>{leg.price_source}{leg.implied_volatility === null ? '' : `, IV ${(leg.implied_volatility * 100).toFixed(1)}%`}</Table.Td>
                <Table.Td>{formatRupees(leg.value_paise)}</Table.Td>
                <Table.Td>{formatRupees(leg.charges_paise)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group grow wrap="wrap" align="stretch">
        <Figure label="Charges (engine's model)" value={formatRupees(preview.charges_paise)} testId="basket-preview-charges" />
        <Figure label="Estimated margin" value={formatRupees(preview.margin_paise)} testId="basket-preview-margin" />
      </Group>
      <Alert variant="light" color="gray" p="xs"><Text size="xs">{preview.margin_basis}</Text></Alert>
      <PayoffSection preview={preview} pricedAt={pricedAt} />
    </Stack>
  );
}

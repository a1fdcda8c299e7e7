// The option chain around ATM for an index whose config has greeks (index_configs.oc_greeks),
// priced by option-chain.ts from the chart's last candle and INDIA VIX at that moment. OI is
// shown only where known: a model does not know it, so the column shows a dash.
import { Badge, Group, Paper, Table, Text } from '@mantine/core';
import { formatDateTime, formatRupees, MISSING_VALUE } from '../../../format/format';
import type { OptionChain, OptionQuoteCells } from './option-chain';

const fixed = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : MISSING_VALUE);
const percentText = (value: number): string => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : MISSING_VALUE);
const oiText = (value: number | undefined): string => (value === undefined ? MISSING_VALUE : value.toLocaleString('en-IN'));

function sideCells(quote: OptionQuoteCells, side: 'CE' | 'PE') {
  const cells = [
    <Table.Td key="oi">{oiText(quote.oi)}</Table.Td>,
    <Table.Td key="vega">{fixed(quote.vega, 2)}</Table.Td>,
    <Table.Td key="theta">{fixed(quote.theta, 2)}</Table.Td>,
    <Table.Td key="gamma">{fixed(quote.gamma, 5)}</Table.Td>,
    <Table.Td key="delta">{fixed(quote.delta, 3)}</Table.Td>,
    <Table.Td key="iv">{percentText(quote.iv)}</Table.Td>,
    <Table.Td key="ltp" fw={500}>{formatRupees(quote.ltpPaise)}</Table.Td>,
  ];
  return side === 'CE' ? cells : [...cells].reverse();
}

const COLUMNS = ['OI', 'Vega', 'Theta', 'Gamma', 'Delta', 'IV', 'LTP'];

export function OptionChainPanel(props: { readonly chain: OptionChain; readonly name: string; readonly spot: number; readonly vix: number; readonly at: number; readonly synthetic: boolean }) {
  const { chain, name, spot, vix, at, synthetic } = props;
  return (
    <Paper withBorder p="sm" data-testid="option-chain">
      <Group justify="space-between" mb="xs">
        <Text fw={500}>
          {name} option chain · expiry {chain.expiry} ({chain.expiryKind}) · spot {spot.toLocaleString('en-IN', { maximumFractionDigits: 2 })} · INDIA VIX {vix.toFixed(2)} · {formatDateTime(at)}
        </Text>
        <Group gap="xs">
          <Badge variant="light" color="gray" title="Black-76 on the synthetic volatility surface">Model prices</Badge>
          {synthetic && <Badge variant="light" color="orange" title="Generated history, not market data">Synthetic</Badge>}
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover withColumnBorders fz="xs" ta="right">
          <Table.Thead>
            <Table.Tr>
              <Table.Th colSpan={COLUMNS.length} ta="center">Calls (CE)</Table.Th>
              <Table.Th ta="center">Strike</Table.Th>
              <Table.Th colSpan={COLUMNS.length} ta="center">Puts (PE)</Table.Th>
            </Table.Tr>
            <Table.Tr>
              {COLUMNS.map((column) => <Table.Th key={`ce-${column}`}>{column}</Table.Th>)}
              <Table.Th />
              {[...COLUMNS].reverse().map((column) => <Table.Th key={`pe-${column}`}>{column}</Table.Th>)}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chain.rows.map((row) => (
              <Table.Tr key={row.strike} data-testid="option-chain-row" data-atm={row.atm} style={row.atm ? { fontWeight: 700 } : undefined}>
                {sideCells(row.ce, 'CE')}
                <Table.Td ta="center" fw={700}>{row.strike.toLocaleString('en-IN')}{row.atm ? ' (ATM)' : ''}</Table.Td>
                {sideCells(row.pe, 'PE')}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

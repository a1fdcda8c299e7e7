// The trade list of one run: every order and fill with its charge components, a page at a time,
// and the totals per component, which must reconcile with the run's charges (metrics.chargesPaid).
import { Alert, Badge, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { formatDateTime, formatRupees, MISSING_VALUE } from '../../../../format/format';
import { chargeTotals, reconcileCharges, type TradeRow } from './trade-list';

/** Rows per page of the trade list. */
export const TRADES_PER_PAGE = 50;

function Reconciled({ differencePaise, runPaise }: { readonly differencePaise: number | undefined; readonly runPaise: number | undefined }) {
  if (differencePaise === undefined) return <Text size="xs" c="dimmed" data-testid="bt-charges-reconcile">The run reports no charge total to check against.</Text>;
  if (differencePaise === 0) {
    return <Text size="xs" c="teal" data-testid="bt-charges-reconcile">The fills' charges add up to the run's charges ({formatRupees(runPaise ?? 0)}).</Text>;
  }
  return (
    <Alert color="yellow" data-testid="bt-charges-reconcile" p="xs">
      The fills' charges differ from the run's charges ({formatRupees(runPaise ?? 0)}) by {formatRupees(differencePaise)}.
    </Alert>
  );
}

export interface TradeListProps {
  readonly rows: readonly TradeRow[];
  readonly runChargesPaise: number | undefined;
}

/** The paged table with its totals. */
export function TradeList({ rows, runChargesPaise }: TradeListProps) {
  const [page, setPage] = useState(1);
  const totals = useMemo(() => chargeTotals(rows), [rows]);
  const reconciliation = reconcileCharges(totals, runChargesPaise);
  const pages = Math.max(1, Math.ceil(rows.length / TRADES_PER_PAGE));
  const shown = rows.slice((page - 1) * TRADES_PER_PAGE, page * TRADES_PER_PAGE);
  const components = totals.components;
  if (rows.length === 0) return <Text c="dimmed" data-testid="bt-trades-empty">This run placed no orders.</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" data-testid="bt-trade-summary">
        {totals.orders.toLocaleString('en-IN')} orders, {totals.fills.toLocaleString('en-IN')} fills · bought {formatRupees(totals.buyValuePaise)} · sold {formatRupees(totals.sellValuePaise)}
      </Text>
      <Table.ScrollContainer minWidth={1100}>
        <Table striped withTableBorder fz="xs" verticalSpacing={4} data-testid="bt-trade-table" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th><Table.Th>Filled at (IST)</Table.Th><Table.Th>Instrument</Table.Th><Table.Th>Side</Table.Th>
              <Table.Th ta="right">Qty</Table.Th><Table.Th ta="right">Price</Table.Th><Table.Th ta="right">Value</Table.Th>
              {components.map(([key, label]) => <Table.Th key={key} ta="right">{label}</Table.Th>)}
              <Table.Th ta="right">Charges</Table.Th><Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.key} data-testid="bt-trade-row">
                <Table.Td>{Number.isFinite(row.sequence) ? row.sequence : MISSING_VALUE}</Table.Td>
                <Table.Td>{formatDateTime(row.fill?.timeMs ?? row.placedAtMs)}</Table.Td>
                <Table.Td>{row.instrument}</Table.Td>
                <Table.Td><Badge size="xs" variant="light" color={row.side === 'BUY' ? 'teal' : 'red'}>{row.side}</Badge></Table.Td>
                <Table.Td ta="right">{(row.fill?.quantity ?? row.orderQuantity).toLocaleString('en-IN')}</Table.Td>
                <Table.Td ta="right">{row.fill === undefined ? MISSING_VALUE : formatRupees(row.fill.pricePaise)}</Table.Td>
                <Table.Td ta="right">{row.fill === undefined ? MISSING_VALUE : formatRupees(row.fill.valuePaise)}</Table.Td>
                {components.map(([key]) => <Table.Td key={key} ta="right">{row.fill === undefined ? MISSING_VALUE : formatRupees(row.charges[key] ?? 0)}</Table.Td>)}
                <Table.Td ta="right" data-testid="bt-trade-charges">{formatRupees(row.chargesPaise)}</Table.Td>
                <Table.Td>{row.fill === undefined ? `${row.status}${row.statusMessage ? `: ${row.statusMessage}` : ''}` : row.tag}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={600}>
              <Table.Td colSpan={7}>Total charges</Table.Td>
              {components.map(([key, , paise]) => <Table.Td key={key} ta="right" data-testid={`bt-charges-${key}`}>{formatRupees(paise)}</Table.Td>)}
              <Table.Td ta="right" data-testid="bt-charges-total">{formatRupees(totals.totalPaise)}</Table.Td>
              <Table.Td />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Reconciled differencePaise={reconciliation.differencePaise} runPaise={reconciliation.runPaise} />
        {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} aria-label="Trade list pages" data-testid="bt-trade-pages" />}
      </Group>
    </Stack>
  );
}

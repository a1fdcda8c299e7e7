// Every row of a sweep in a table: the grid position, the parameter values and each metric;
// a header sorts by its column (again: the other way). First order: the sweep's metric, best
// first, ties in grid order, so the top row is the summary's best cell. Fifty rows a page.
import { Group, Pagination, Table, Text, UnstyledButton } from '@mantine/core';
import type { SweepMetric } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import type { SortColumn, SortOrder, SweepRowRecord } from './sweep-view';
import { bestFirst, METRIC_LABELS, METRIC_ORDER, metricText, nextOrder, sortRows } from './sweep-view';

const PAGE_ROWS = 50;

function Header({ label, column, order, onSort, testId }: {
  readonly label: string; readonly column: SortColumn; readonly order: SortOrder; readonly onSort: (column: SortColumn) => void; readonly testId: string;
}) {
  const active = JSON.stringify(order.column) === JSON.stringify(column);
  const sorted = active ? (order.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <Table.Th aria-sort={sorted}>
      <UnstyledButton onClick={() => onSort(column)} data-testid={testId} data-sorted={sorted}>
        <Group gap={4} wrap="nowrap"><Text size="sm" fw={600}>{label}</Text><Text size="xs" c="dimmed">{active ? (order.direction === 'asc' ? '▲' : '▼') : '↕'}</Text></Group>
      </UnstyledButton>
    </Table.Th>
  );
}

export interface SweepTableProps {
  readonly rows: readonly SweepRowRecord[];
  readonly parameters: readonly string[];
  readonly metric: SweepMetric;
}

export function SweepTable({ rows, parameters, metric }: SweepTableProps) {
  const [order, setOrder] = useState<SortOrder>(bestFirst(metric));
  const [page, setPage] = useState(1);
  const sorted = useMemo(() => sortRows(rows, order), [rows, order]);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_ROWS));
  const shown = sorted.slice((page - 1) * PAGE_ROWS, page * PAGE_ROWS);
  const onSort = (column: SortColumn): void => {
    setOrder(nextOrder(order, column));
    setPage(1);
  };
  return (
    <>
      <Table.ScrollContainer minWidth={900}>
        <Table striped highlightOnHover withTableBorder fz="sm" data-testid="sweep-table">
          <Table.Thead>
            <Table.Tr>
              <Header label="#" column={{ kind: 'position' }} order={order} onSort={onSort} testId="sweep-sort-position" />
              {parameters.map((name) => <Header key={name} label={`$${name}`} column={{ kind: 'parameter', name }} order={order} onSort={onSort} testId={`sweep-sort-param-${name}`} />)}
              {METRIC_ORDER.map((name) => <Header key={name} label={METRIC_LABELS[name]} column={{ kind: 'metric', metric: name }} order={order} onSort={onSort} testId={`sweep-sort-${name}`} />)}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.position} data-testid="sweep-table-row" data-position={row.position}>
                <Table.Td>{row.position + 1}</Table.Td>
                {parameters.map((name) => <Table.Td key={name} ff="monospace">{row.bindings[name] ?? '—'}</Table.Td>)}
                {METRIC_ORDER.map((name) => (
                  <Table.Td key={name} data-metric={name} data-value={String(row.metrics[name] ?? '')} style={{ whiteSpace: 'nowrap', fontWeight: name === metric ? 600 : undefined }}>
                    {metricText(name, row.metrics[name])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} data-testid="sweep-table-pages" />}
      <Text size="xs" c="dimmed">{rows.length.toLocaleString('en-IN')} combinations. Click a column to sort by it.</Text>
    </>
  );
}

// A live table of the orders matching `where` (an orders_bool_exp): every state with its colour,
// side, quantity, filled, average price, trigger/limit, tag, time and the rejection reason, and
// per order its fills (expand the row) with price, quantity, time and charges. Two GraphQL
// subscriptions keep it current (the rows and their count; a subscription has one root field).
import { Badge, Button, Group, Loader, Table, Text, UnstyledButton } from '@mantine/core';
import { Fragment, useDeferredValue, useState } from 'react';
import { useSubscription } from 'urql';
import { formatRupees } from '@vyuha/core';
import { QueryState } from '../QueryState';
import { dateTimeText } from '../time';
import { chargesBreakdownText, chargesTotal, orderState, priceText, triggerLimitText } from './orders-model';

const PAGE = 50;

const ORDERS = `subscription OrdersTable($where: orders_bool_exp!, $limit: Int!) {
  orders(where: $where, order_by: [{ created_at: desc }, { client_order_id: desc }], limit: $limit) {
    order_id client_order_id side quantity filled_quantity order_type product price_paise trigger_price_paise average_price_paise
    status status_message tag square_off created_at
    strategy { name }
    instrument { trading_symbol }
    fills(order_by: [{ ts: asc }, { trade_id: asc }]) { fill_id trade_id quantity price_paise charges_paise ts }
  }
}`;

const ORDER_COUNT = `subscription OrdersCount($where: orders_bool_exp!) {
  orders_aggregate(where: $where) { aggregate { count } }
}`;

type Paise = number | string;

export interface FillRow {
  readonly fill_id: string;
  readonly trade_id: string;
  readonly quantity: number;
  readonly price_paise: Paise;
  readonly charges_paise: unknown;
  readonly ts: string;
}

export interface OrderRow {
  readonly order_id: string;
  readonly client_order_id: string;
  readonly side: string;
  readonly quantity: number;
  readonly filled_quantity: number;
  readonly order_type: string;
  readonly product: string;
  readonly price_paise: Paise | null;
  readonly trigger_price_paise: Paise | null;
  readonly average_price_paise: Paise | null;
  readonly status: string;
  readonly status_message: string | null;
  readonly tag: string | null;
  readonly square_off: boolean;
  readonly created_at: string;
  readonly strategy: { readonly name: string } | null;
  readonly instrument: { readonly trading_symbol: string } | null;
  readonly fills: readonly FillRow[];
}

export interface OrdersTableProps {
  readonly where: Record<string, unknown>;
  readonly showStrategy?: boolean;
  /** Rows shown at first (newest first); "Show more" adds as many again. */
  readonly limit?: number;
  readonly emptyText?: string;
}

export function OrdersTable(props: OrdersTableProps) {
  const { where, showStrategy = false, emptyText = 'No orders yet.' } = props;
  const page = props.limit ?? PAGE;
  const [limit, setLimit] = useState(page);
  const [result] = useSubscription<{ orders: OrderRow[] }>({ query: ORDERS, variables: { where, limit } });
  const [count] = useSubscription<{ orders_aggregate: { aggregate: { count: number } | null } }>({ query: ORDER_COUNT, variables: { where } });
  // The rows render in a deferred, interruptible pass: a page of orders with their fills is the
  // heaviest part of the screens that show it, and the rest of the screen paints (and answers
  // input) without waiting for it; meanwhile the table keeps what it showed before.
  const orders = useDeferredValue(result.data?.orders);
  const total = count.data?.orders_aggregate.aggregate?.count;
  return (
    <QueryState fetching={orders === undefined} error={result.error} hasData={orders !== undefined} title="Could not follow the orders">
      {orders !== undefined && orders.length === 0 ? (
        <Text c="dimmed" data-testid="orders-empty">{emptyText}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" data-testid="orders-count">
            {total === undefined ? <Loader size="xs" /> : total > (orders?.length ?? 0) ? `Latest ${orders?.length ?? 0} of ${total} orders` : `${total} ${total === 1 ? 'order' : 'orders'}`}
          </Text>
          <OrderRows orders={orders ?? []} showStrategy={showStrategy} />
          {total !== undefined && total > (orders?.length ?? 0) && (
            <Group><Button size="xs" variant="light" onClick={() => setLimit(limit + page)}>Show {Math.min(page, total - limit)} more</Button></Group>
          )}
        </>
      )}
    </QueryState>
  );
}

function OrderRows({ orders, showStrategy }: { readonly orders: readonly OrderRow[]; readonly showStrategy: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string): void => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  const columns = showStrategy ? 12 : 11;
  return (
    <Table.ScrollContainer minWidth={showStrategy ? 1400 : 1240}>
      <Table striped highlightOnHover data-testid="orders-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            {showStrategy && <Table.Th>Strategy</Table.Th>}
            <Table.Th>Instrument</Table.Th>
            <Table.Th>Side</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th ta="right">Qty</Table.Th>
            <Table.Th ta="right">Filled</Table.Th>
            <Table.Th ta="right">Avg price</Table.Th>
            <Table.Th>Trigger / limit</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Tag</Table.Th>
            <Table.Th>Fills</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((order) => (
            <Fragment key={order.order_id}>
              <OrderLine order={order} showStrategy={showStrategy} open={open.has(order.order_id)} onToggle={() => toggle(order.order_id)} />
              {open.has(order.order_id) && (
                <Table.Tr data-testid="order-fills">
                  <Table.Td colSpan={columns + 1}><FillList fills={order.fills} /></Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OrderLine({ order, showStrategy, open, onToggle }: {
  readonly order: OrderRow; readonly showStrategy: boolean; readonly open: boolean; readonly onToggle: () => void;
}) {
  const state = orderState(order.status);
  return (
    <Table.Tr data-testid="order-row" data-order-id={order.client_order_id} data-status={order.status}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeText(order.created_at)}</Table.Td>
      {showStrategy && <Table.Td>{order.strategy?.name ?? '—'}</Table.Td>}
      <Table.Td>{order.instrument?.trading_symbol ?? '—'}</Table.Td>
      <Table.Td><Text size="sm" fw={600} c={order.side === 'BUY' ? 'teal' : 'red'}>{order.side}</Text></Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{order.order_type} · {order.product}{order.square_off ? ' · square-off' : ''}</Table.Td>
      <Table.Td ta="right" data-testid="order-quantity">{order.quantity}</Table.Td>
      <Table.Td ta="right" data-testid="order-filled">{order.filled_quantity}</Table.Td>
      <Table.Td ta="right" data-testid="order-average">{priceText(order.average_price_paise)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{triggerLimitText(order)}</Table.Td>
      <Table.Td miw={150}>
        <Badge variant="light" color={state.color} data-testid="order-state">{state.label}</Badge>
        {order.status_message && (
          <Text size="xs" c={order.status === 'REJECTED' ? 'red' : 'dimmed'} maw={260} data-testid="order-reason">{order.status_message}</Text>
        )}
      </Table.Td>
      <Table.Td><Text size="xs" ff="monospace">{order.tag ?? '—'}</Text></Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {order.fills.length === 0 ? <Text size="sm" c="dimmed">—</Text> : (
          <UnstyledButton onClick={onToggle} aria-expanded={open} data-testid="order-fills-toggle">
            <Text size="sm" c="blue">{open ? '▾' : '▸'} {order.fills.length} {order.fills.length === 1 ? 'fill' : 'fills'}</Text>
          </UnstyledButton>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function FillList({ fills }: { readonly fills: readonly FillRow[] }) {
  return (
    <Table withRowBorders={false} verticalSpacing={2} data-testid="fills-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Fill time</Table.Th>
          <Table.Th ta="right">Qty</Table.Th>
          <Table.Th ta="right">Price</Table.Th>
          <Table.Th ta="right">Charges</Table.Th>
          <Table.Th>Breakdown</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fills.map((fill) => (
          <Table.Tr key={fill.fill_id} data-testid="fill-row" data-trade-id={fill.trade_id}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTimeText(fill.ts)}</Table.Td>
            <Table.Td ta="right">{fill.quantity}</Table.Td>
            <Table.Td ta="right">{priceText(fill.price_paise)}</Table.Td>
            <Table.Td ta="right" data-testid="fill-charges" data-paise={chargesTotal(fill.charges_paise)}>{formatRupees(chargesTotal(fill.charges_paise))}</Table.Td>
            <Table.Td><Text size="xs" c="dimmed">{chargesBreakdownText(fill.charges_paise) || '—'}</Text></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

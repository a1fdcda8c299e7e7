// The positions of PAPER and LIVE runs matching `where`, live: the rows follow a GraphQL
// subscription on `positions` (the runtime writes each fill and each mark there) and the LTPs one on
// `ltps` (the /chart price source), so P&L moves without a reload. BACKTEST runs are never shown,
// whatever `where` says. `open`: positions held now, with LTP, unrealised P&L, option greeks and
// square-off; otherwise flat ones, with their realised P&L and charges. Used by /positions and the
// strategy detail page.
import { Anchor, Badge, Button, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { formatPrice } from '@vyuha/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { useReadOnly } from '../../../../app/update-mode';
import { formatRupees } from '../../../../format/format';
import { QueryError } from '../../research/query-feedback';
import { lastPriceOf, type LastPrice, type LastPriceRow } from '../use-last-prices';
import { dateTimeText } from '../time';
import { STRATEGY_WRITER_ROLES, useSubject } from '../use-subject';
import { positionLines, positionTotals, pricedInstrumentIds } from './position-rows';
import type { PositionLine, PositionRow, PositionTotals } from './position-rows';
import { useSquareOff } from './use-square-off';

const POSITIONS_SUBSCRIPTION = `subscription Positions($where: positions_bool_exp!) {
  positions(where: $where, order_by: [{ updated_at: desc }, { instrument_id: asc }]) {
    run_id instrument_id net_quantity average_price_paise open_cost_paise realised_pnl_paise unrealised_pnl_paise mark_price_paise
    charges_paise updated_at
    instrument { trading_symbol exchange kind option_type strike_paise expiry underlying_instrument_id underlying { trading_symbol } }
    run { kind status params strategy { strategy_id name } }
  }
}`;

const LTPS_SUBSCRIPTION = `subscription PositionPrices($ids: [Int!]!) {
  ltps(where: { instrument_id: { _in: $ids } }) { instrument_id price_paise updated_at source }
}`;

const ACCOUNTS_QUERY = `query PositionAccounts($ids: [uuid!]!) {
  user_brokers(where: { user_broker_id: { _in: $ids } }) { user_broker_id broker client_id }
}`;

export interface PositionsTableProps {
  readonly where: Record<string, unknown>;
  readonly showStrategy?: boolean;
  readonly open: boolean;
  readonly allowSquareOff?: boolean;
}

function PnlText({ paise, testId }: { readonly paise: number; readonly testId?: string }) {
  return <Text size="sm" span c={paise > 0 ? 'teal' : paise < 0 ? 'red' : 'inherit'} {...(testId === undefined ? {} : { 'data-testid': testId })}>{formatRupees(paise)}</Text>;
}

function greekText(value: number | undefined, digits: number): string {
  return value === undefined ? '—' : value.toLocaleString('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The live LTPs of `ids`. */
function useLivePrices(ids: readonly number[]): ReadonlyMap<number, LastPrice> {
  // Keyed by the ids' text, so a new array with the same ids does not restart the subscription.
  const key = ids.join(',');
  const variables = useMemo(() => ({ ids: key === '' ? [] : key.split(',').map(Number) }), [key]);
  const [result] = useSubscription<{ ltps: LastPriceRow[] }>({ query: LTPS_SUBSCRIPTION, variables, pause: ids.length === 0 });
  return useMemo(() => {
    const byId = new Map<number, LastPrice>();
    for (const row of result.data?.ltps ?? []) {
      const price = lastPriceOf(row);
      if (price !== undefined) byId.set(price.instrumentId, price);
    }
    return byId;
  }, [result.data]);
}

/** "PAPER", or "LIVE" with the broker account's name. */
function useAccountNames(lines: readonly PositionLine[]): (line: PositionLine) => string {
  const ids = useMemo(() => [...new Set(lines.flatMap((line) => (line.brokerAccountId === undefined ? [] : [line.brokerAccountId])))].sort(),
    [lines]);
  const [accounts] = useQuery<{ user_brokers: Array<{ user_broker_id: string; broker: string; client_id: string }> }>({
    query: ACCOUNTS_QUERY, variables: { ids }, pause: ids.length === 0,
  });
  const names = new Map((accounts.data?.user_brokers ?? []).map((row) => [row.user_broker_id, `${row.broker} ${row.client_id}`]));
  return (line) => (line.mode === 'LIVE' ? `LIVE · ${names.get(line.brokerAccountId ?? '') ?? 'broker'}` : line.mode);
}

function StrategyCell({ line }: { readonly line: PositionLine }) {
  if (line.strategyId === undefined) return <Text size="sm" c="dimmed">—</Text>;
  return <Anchor component={Link} to={`/strategies/${line.strategyId}`} size="sm">{line.strategyName}</Anchor>;
}

function InstrumentCell({ line }: { readonly line: PositionLine }) {
  return <Text size="sm" span>{line.symbol}<Text span size="xs" c="dimmed"> {line.exchange}</Text></Text>;
}

function AccountBadge({ text }: { readonly text: string }) {
  return <Badge variant="light" color={text.startsWith('LIVE') ? 'orange' : 'gray'} style={{ textTransform: 'none' }}>{text}</Badge>;
}

interface GridProps {
  readonly lines: readonly PositionLine[];
  readonly totals: PositionTotals;
  readonly showStrategy: boolean;
  readonly accountOf: (line: PositionLine) => string;
}

function OpenGrid({ lines, totals, showStrategy, accountOf, onSquareOff }: GridProps & { readonly onSquareOff: ((line: PositionLine) => void) | undefined }) {
  const canSquareOff = (line: PositionLine): boolean => line.strategyId !== undefined && line.closable;
  const hasOptions = lines.some((line) => line.greeks !== undefined);
  return (
    <Table.ScrollContainer minWidth={hasOptions ? 1180 : 860}>
      <Table striped highlightOnHover data-testid="open-positions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instrument</Table.Th>
            {showStrategy && <Table.Th>Strategy</Table.Th>}
            <Table.Th>Account</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            <Table.Th ta="right">Average</Table.Th>
            <Table.Th ta="right">LTP</Table.Th>
            <Table.Th ta="right">Unrealised</Table.Th>
            <Table.Th ta="right">Realised</Table.Th>
            {hasOptions && <><Table.Th ta="right">IV</Table.Th><Table.Th ta="right">Delta</Table.Th><Table.Th ta="right">Gamma</Table.Th>
              <Table.Th ta="right">Theta</Table.Th><Table.Th ta="right">Vega</Table.Th></>}
            {onSquareOff && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.key} data-testid="position-row" data-symbol={line.symbol}>
              <Table.Td><InstrumentCell line={line} /></Table.Td>
              {showStrategy && <Table.Td><StrategyCell line={line} /></Table.Td>}
              <Table.Td><AccountBadge text={accountOf(line)} /></Table.Td>
              <Table.Td ta="right"><Text size="sm" span c={line.quantity < 0 ? 'red' : 'inherit'}>{line.quantity}</Text></Table.Td>
              <Table.Td ta="right">{formatPrice(line.averagePaise)}</Table.Td>
              <Table.Td ta="right">
                <Tooltip label={line.ltpSource === 'mark' ? "The run's last mark" : 'Last traded price'} disabled={line.ltpSource === undefined}>
                  <Text size="sm" span data-testid="position-ltp">{line.ltpPaise === undefined ? '—' : formatPrice(line.ltpPaise)}</Text>
                </Tooltip>
              </Table.Td>
              <Table.Td ta="right"><PnlText paise={line.unrealisedPaise} testId="position-unrealised" /></Table.Td>
              <Table.Td ta="right"><PnlText paise={line.realisedPaise} /></Table.Td>
              {hasOptions && <>
                <Table.Td ta="right">{line.greeks === undefined ? '—' : `${greekText(line.greeks.iv * 100, 1)}%`}</Table.Td>
                <Table.Td ta="right">{greekText(line.greeks?.delta, 2)}</Table.Td>
                <Table.Td ta="right">{greekText(line.greeks?.gamma, 4)}</Table.Td>
                <Table.Td ta="right">{greekText(line.greeks?.theta, 2)}</Table.Td>
                <Table.Td ta="right">{greekText(line.greeks?.vega, 2)}</Table.Td>
              </>}
              {onSquareOff && (
                <Table.Td ta="right">
                  {canSquareOff(line) && <Button size="compact-xs" variant="light" color="red" onClick={() => onSquareOff(line)}>Square off</Button>}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={showStrategy ? 6 : 5}>Total</Table.Th>
            <Table.Th ta="right"><PnlText paise={totals.unrealisedPaise} testId="positions-total-unrealised" /></Table.Th>
            <Table.Th ta="right"><PnlText paise={totals.realisedPaise} /></Table.Th>
            {hasOptions && <Table.Th colSpan={5} />}
            {onSquareOff && <Table.Th />}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

function ClosedGrid({ lines, totals, showStrategy, accountOf }: GridProps) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover data-testid="closed-positions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Instrument</Table.Th>
            {showStrategy && <Table.Th>Strategy</Table.Th>}
            <Table.Th>Account</Table.Th>
            <Table.Th ta="right">Realised P&amp;L</Table.Th>
            <Table.Th ta="right">Charges</Table.Th>
            <Table.Th>Closed at</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.key} data-testid="closed-position-row" data-symbol={line.symbol}>
              <Table.Td><InstrumentCell line={line} /></Table.Td>
              {showStrategy && <Table.Td><StrategyCell line={line} /></Table.Td>}
              <Table.Td><AccountBadge text={accountOf(line)} /></Table.Td>
              <Table.Td ta="right"><PnlText paise={line.realisedPaise} testId="closed-realised" /></Table.Td>
              <Table.Td ta="right">{formatRupees(line.chargesPaise)}</Table.Td>
              <Table.Td>{line.updatedAtMs === undefined ? '—' : dateTimeText(new Date(line.updatedAtMs).toISOString())}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={showStrategy ? 3 : 2}>Total</Table.Th>
            <Table.Th ta="right"><PnlText paise={totals.realisedPaise} /></Table.Th>
            <Table.Th ta="right">{formatRupees(totals.chargesPaise)}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Net greeks per underlying (shown only when options are held). */
function NetGreeks({ totals }: { readonly totals: PositionTotals }) {
  if (totals.greeksByUnderlying.size === 0) return null;
  return (
    <Group gap="md" wrap="wrap" data-testid="net-greeks">
      {[...totals.greeksByUnderlying].map(([underlying, net]) => (
        <Text key={underlying} size="sm">
          Net greeks on {totals.underlyingNames.get(underlying) ?? `#${underlying}`}: delta {greekText(net.delta, 2)}, gamma {greekText(net.gamma, 4)},
          theta {greekText(net.theta, 2)} a day, vega {greekText(net.vega, 2)} a vol point
        </Text>
      ))}
    </Group>
  );
}

export function PositionsTable(props: { where: Record<string, unknown>; showStrategy?: boolean; open: boolean; allowSquareOff?: boolean }) {
  const { where, open } = props;
  const subject = useSubject();
  const readOnly = useReadOnly();
  // Trading runs only, and held or flat as asked: a backtest's positions are results, never holdings.
  const filter = useMemo(() => ({
    _and: [where, { run: { kind: { _in: ['PAPER', 'LIVE'] } } }, { net_quantity: open ? { _neq: 0 } : { _eq: 0 } }],
  }), [where, open]);
  const [result] = useSubscription<{ positions: PositionRow[] }>({ query: POSITIONS_SUBSCRIPTION, variables: { where: filter } });
  const rows = result.data?.positions;
  const ids = useMemo(() => (open ? pricedInstrumentIds(rows ?? []) : []), [rows, open]);
  const prices = useLivePrices(ids);
  const lines = useMemo(() => positionLines(rows ?? [], prices), [rows, prices]);
  const totals = useMemo(() => positionTotals(lines), [lines]);
  const accountOf = useAccountNames(lines);
  const { squareOff, busy } = useSquareOff();
  const mayTrade = props.allowSquareOff === true && open && !readOnly && STRATEGY_WRITER_ROLES.includes(subject.role ?? '');
  // Only a run in progress (its runner) or a basket placement (the server) can close a position; a stopped run's leftovers are the user's to manage.
  const squarable = lines.filter((line) => line.strategyId !== undefined && line.closable);
  if (result.error) return <QueryError error={result.error} title="Could not follow the positions" />;
  if (rows === undefined) return <Loader size="sm" />;
  if (lines.length === 0) return <Text c="dimmed" data-testid={open ? 'no-open-positions' : 'no-closed-positions'}>{open ? 'No open positions.' : 'No closed positions.'}</Text>;
  const grid = { lines, totals, showStrategy: props.showStrategy ?? true, accountOf };
  return (
    <Stack gap="xs">
      {mayTrade && squarable.length > 0 && (
        <Group justify="flex-end" wrap="wrap">
          <Button size="xs" color="red" variant="outline" loading={busy} onClick={() => void squareOff(squarable)}>Square off all</Button>
        </Group>
      )}
      {open ? <OpenGrid {...grid} onSquareOff={mayTrade ? (line) => void squareOff([line]) : undefined} /> : <ClosedGrid {...grid} />}
      {open && <NetGreeks totals={totals} />}
    </Stack>
  );
}

// The legs of a basket as an editable table: instrument (a future, a call or put of an index and
// expiry, or an equity), side, lots or quantity, order type and the prices it needs. Each field
// shows its own problem (basket-form.ts names it). Wide tables scroll inside their container.
import { ActionIcon, Button, SegmentedControl, Select, Table, TextInput } from '@mantine/core';
import type { IsoDate } from '@vyuha/core';
import type { OptionUnderlying } from '@vyuha/market';
import { expiryChoices, newLegRow, ORDER_TYPES, symbolOfRow, UNDERLYINGS, type LegInstrument, type LegOrderType, type LegRow, type RowIssue } from './basket-form';

const INSTRUMENTS: ReadonlyArray<{ value: LegInstrument; label: string }> = [
  { value: 'FUT', label: 'Future' }, { value: 'CE', label: 'Call (CE)' }, { value: 'PE', label: 'Put (PE)' }, { value: 'EQ', label: 'Equity' },
];

/** Most legs the editor lets a basket hold (the server's limit). */
export const MAX_LEGS = 10;

export interface LegsEditorProps {
  readonly rows: readonly LegRow[];
  readonly issues: readonly RowIssue[];
  readonly today: IsoDate;
  readonly readOnly: boolean;
  readonly onChange: (rows: LegRow[]) => void;
}

function LegInstrumentCells({ row, today, issueOf, update, readOnly }: {
  readonly row: LegRow; readonly today: IsoDate; readonly readOnly: boolean;
  readonly issueOf: (name: string) => string | undefined; readonly update: (patch: Partial<LegRow>) => void;
}) {
  const expiries = row.instrument === 'EQ' ? [] : expiryChoices(row.underlying, row.instrument, today);
  const changeKind = (instrument: LegInstrument, underlying: OptionUnderlying = row.underlying): void => {
    const choices = instrument === 'EQ' ? [] : expiryChoices(underlying, instrument, today);
    update({ instrument, underlying, expiry: choices.includes(row.expiry) ? row.expiry : choices[0] ?? '' });
  };
  return (
    <>
      <Table.Td miw={120}>
        <Select aria-label="Instrument" size="xs" data={INSTRUMENTS as never} value={row.instrument} allowDeselect={false} disabled={readOnly}
          onChange={(value) => changeKind((value ?? 'FUT') as LegInstrument)} />
      </Table.Td>
      {row.instrument === 'EQ' ? (
        <Table.Td colSpan={3} miw={300}>
          <TextInput aria-label="Equity symbol" size="xs" placeholder="Trading symbol, e.g. INFY" value={row.equity} disabled={readOnly}
            error={issueOf('equity')} onChange={(event) => update({ equity: event.currentTarget.value })} />
        </Table.Td>
      ) : (
        <>
          <Table.Td miw={120}>
            <Select aria-label="Index" size="xs" data={[...UNDERLYINGS]} value={row.underlying} allowDeselect={false} disabled={readOnly}
              onChange={(value) => changeKind(row.instrument, (value ?? 'NIFTY') as OptionUnderlying)} />
          </Table.Td>
          <Table.Td miw={130}>
            <Select aria-label="Expiry" size="xs" data={expiries} value={row.expiry || null} allowDeselect={false} disabled={readOnly} error={issueOf('expiry')}
              onChange={(value) => update({ expiry: value ?? '' })} />
          </Table.Td>
          <Table.Td miw={100}>
            {row.instrument !== 'FUT' && (
              <TextInput aria-label="Strike" size="xs" inputMode="decimal" placeholder="Strike" value={row.strike} disabled={readOnly} error={issueOf('strike')}
                onChange={(event) => update({ strike: event.currentTarget.value })} />
            )}
          </Table.Td>
        </>
      )}
    </>
  );
}

function LegEditorRow({ row, index, props }: { readonly row: LegRow; readonly index: number; readonly props: LegsEditorProps }) {
  const { readOnly } = props;
  const issueOf = (name: string): string | undefined => props.issues.find((issue) => issue.field === `legs[${index}].${name}`)?.message;
  const update = (patch: Partial<LegRow>): void => props.onChange(props.rows.map((other, at) => (at === index ? { ...other, ...patch } : other)));
  const needsPrice = row.orderType === 'LIMIT' || row.orderType === 'SL';
  const needsTrigger = row.orderType === 'SL' || row.orderType === 'SL-M';
  return (
    <Table.Tr data-testid={`basket-leg-${index}`}>
      <Table.Td>{index + 1}</Table.Td>
      <LegInstrumentCells row={row} today={props.today} issueOf={issueOf} update={update} readOnly={readOnly} />
      <Table.Td>
        <SegmentedControl size="xs" data={['BUY', 'SELL']} value={row.side} disabled={readOnly} color={row.side === 'BUY' ? 'teal' : 'red'}
          onChange={(value) => update({ side: value as LegRow['side'] })} aria-label="Side" />
      </Table.Td>
      <Table.Td miw={80}>
        <TextInput aria-label={row.instrument === 'EQ' ? 'Quantity' : 'Lots'} size="xs" inputMode="numeric" value={row.size} disabled={readOnly}
          error={issueOf('size')} onChange={(event) => update({ size: event.currentTarget.value })} />
      </Table.Td>
      <Table.Td miw={100}>
        <Select aria-label="Order type" size="xs" data={[...ORDER_TYPES]} value={row.orderType} allowDeselect={false} disabled={readOnly}
          onChange={(value) => update({ orderType: (value ?? 'MARKET') as LegOrderType })} />
      </Table.Td>
      <Table.Td miw={100}>
        {needsPrice && <TextInput aria-label="Price" size="xs" inputMode="decimal" placeholder="Price ₹" value={row.price} disabled={readOnly}
          error={issueOf('price')} onChange={(event) => update({ price: event.currentTarget.value })} />}
      </Table.Td>
      <Table.Td miw={100}>
        {needsTrigger && <TextInput aria-label="Trigger" size="xs" inputMode="decimal" placeholder="Trigger ₹" value={row.trigger} disabled={readOnly}
          error={issueOf('trigger')} onChange={(event) => update({ trigger: event.currentTarget.value })} />}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }} c="dimmed" fz="xs">{symbolOfRow(row) ?? ''}</Table.Td>
      <Table.Td>
        {!readOnly && props.rows.length > 1 && (
          <ActionIcon variant="subtle" color="red" aria-label={`Remove leg ${index + 1}`} onClick={() => props.onChange(props.rows.filter((_, at) => at !== index))}>×</ActionIcon>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function LegsEditor(props: LegsEditorProps) {
  return (
    <>
      <Table.ScrollContainer minWidth={1080}>
        <Table fz="sm" verticalSpacing={4} data-testid="basket-legs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th><Table.Th>Instrument</Table.Th><Table.Th>Index</Table.Th><Table.Th>Expiry</Table.Th><Table.Th>Strike</Table.Th>
              <Table.Th>Side</Table.Th><Table.Th>Lots / qty</Table.Th><Table.Th>Order</Table.Th><Table.Th>Price</Table.Th><Table.Th>Trigger</Table.Th>
              <Table.Th>Symbol</Table.Th><Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.map((row, index) => <LegEditorRow key={index} row={row} index={index} props={props} />)}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!props.readOnly && props.rows.length < MAX_LEGS && (
        <Button variant="light" size="xs" w="fit-content" onClick={() => props.onChange([...props.rows, newLegRow(props.today)])} data-testid="basket-add-leg">Add leg</Button>
      )}
    </>
  );
}

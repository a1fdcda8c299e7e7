// A trading report drawn read-only, for /reports (manager, superadmin) and /report (a shared link):
// the totals, the tables per user, strategy, broker account and day, and a day's contract note
// (each fill with its charges by component). Every figure is the server's (report-data.ts); the
// note's per-account footer is that day's row of the server's day table. Printing (report-print.css)
// leaves out the app's navigation and anything marked data-report-noprint, and fits the tables on A4.
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatRupees, MISSING_VALUE } from '../../../format/format';
import { istClock } from './report-csv';
import { CHARGE_COLUMNS, paise, type DayRow, type Figures, type FillLine, type Paise, type TradingReport } from './report-data';
import './report-print.css';

function Money({ value, signed = false, testId }: { readonly value: Paise; readonly signed?: boolean; readonly testId?: string }) {
  const amount = paise(value);
  const color = !signed || amount === 0 ? {} : { c: amount < 0 ? 'red' : 'teal' };
  return <Text span inherit {...color} {...(testId === undefined ? {} : { 'data-testid': testId })} data-paise={amount}>{formatRupees(amount)}</Text>;
}

function Stat({ label, children, testId }: { readonly label: string; readonly children: React.ReactNode; readonly testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={700} size="lg">{children}</Text>
    </Paper>
  );
}

/** The figure columns every table of the report shares, after its own leading columns. */
const FIGURE_HEADERS = ['Net P&L', 'Realised', 'Charges', 'Orders', 'Fills', 'Max drawdown'];

function FigureCells({ figures }: { readonly figures: Figures }) {
  return (
    <>
      <Table.Td ta="right"><Money value={figures.net_pnl_paise} signed /></Table.Td>
      <Table.Td ta="right"><Money value={figures.realised_paise} /></Table.Td>
      <Table.Td ta="right"><Money value={figures.charges_paise} /></Table.Td>
      <Table.Td ta="right">{figures.orders.toLocaleString('en-IN')}</Table.Td>
      <Table.Td ta="right">{figures.fills.toLocaleString('en-IN')}</Table.Td>
      <Table.Td ta="right"><Money value={figures.max_drawdown_paise} /></Table.Td>
    </>
  );
}

function FigureTable<Row extends Figures>(props: {
  readonly title: string; readonly testId: string; readonly rows: readonly Row[]; readonly empty: string;
  readonly leading: readonly string[]; readonly cells: (row: Row) => React.ReactNode; readonly keyOf: (row: Row) => string;
  readonly action?: (row: Row) => React.ReactNode;
}) {
  return (
    <Stack gap="xs" className="report-section">
      <Title order={3} size="h4">{props.title}</Title>
      {props.rows.length === 0 ? <Text c="dimmed" size="sm">{props.empty}</Text> : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder fz="sm" className="report-table" data-testid={props.testId}>
            <Table.Thead>
              <Table.Tr>
                {props.leading.map((header) => <Table.Th key={header}>{header}</Table.Th>)}
                {FIGURE_HEADERS.map((header) => <Table.Th key={header} ta="right">{header}</Table.Th>)}
                {props.action !== undefined && <Table.Th data-report-noprint />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.rows.map((row) => (
                <Table.Tr key={props.keyOf(row)}>
                  {props.cells(row)}
                  <FigureCells figures={row} />
                  {props.action !== undefined && <Table.Td data-report-noprint>{props.action(row)}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function accountLabel(row: { readonly broker: string | null; readonly client_id: string | null }, mode: string): string {
  if (row.broker === null) return mode === 'PAPER' ? 'Paper (no broker account)' : 'No broker account';
  return `${row.broker} ${row.client_id ?? ''}`.trim();
}

function ChargesTable({ figures }: { readonly figures: Figures }) {
  return (
    <Stack gap="xs" className="report-section">
      <Title order={3} size="h4">Charges paid</Title>
      <Table.ScrollContainer minWidth={640}>
        <Table withTableBorder fz="sm" className="report-table" data-testid="report-charges">
          <Table.Thead>
            <Table.Tr>{CHARGE_COLUMNS.map(([key, label]) => <Table.Th key={key} ta="right">{label}</Table.Th>)}<Table.Th ta="right">Total</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              {CHARGE_COLUMNS.map(([key]) => <Table.Td key={key} ta="right"><Money value={figures.charges[key]} /></Table.Td>)}
              <Table.Td ta="right"><Money value={figures.charges_paise} /></Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The fills of one account on the note's day, as a contract note lists them, with the day's row as the footer. */
function NoteTable({ fills, day, mode }: { readonly fills: readonly FillLine[]; readonly day: DayRow | undefined; readonly mode: string }) {
  const first = fills[0];
  if (first === undefined) return null;
  return (
    <Stack gap={4} className="report-section">
      <Text fw={600} size="sm">{first.user_name} · {accountLabel(first, mode)}</Text>
      <Table.ScrollContainer minWidth={1000}>
        <Table withTableBorder fz="xs" className="report-table report-note" data-testid="report-note-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th><Table.Th>Instrument</Table.Th><Table.Th>Strategy</Table.Th><Table.Th>Side</Table.Th>
              <Table.Th ta="right">Qty</Table.Th><Table.Th ta="right">Price</Table.Th><Table.Th ta="right">Value</Table.Th>
              <Table.Th ta="right">Realised</Table.Th>
              {CHARGE_COLUMNS.map(([key, label]) => <Table.Th key={key} ta="right">{label}</Table.Th>)}
              <Table.Th ta="right">Charges</Table.Th><Table.Th ta="right">Net</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fills.map((fill) => (
              <Table.Tr key={fill.fill_id}>
                <Table.Td>{istClock(fill.ts)}</Table.Td>
                <Table.Td>{fill.exchange}:{fill.instrument}</Table.Td>
                <Table.Td>{fill.strategy_name}</Table.Td>
                <Table.Td><Text span inherit fw={600} c={fill.side === 'BUY' ? 'blue' : 'orange'}>{fill.side}</Text></Table.Td>
                <Table.Td ta="right">{fill.quantity.toLocaleString('en-IN')}</Table.Td>
                <Table.Td ta="right"><Money value={fill.price_paise} /></Table.Td>
                <Table.Td ta="right"><Money value={fill.value_paise} /></Table.Td>
                <Table.Td ta="right"><Money value={fill.realised_paise} /></Table.Td>
                {CHARGE_COLUMNS.map(([key]) => <Table.Td key={key} ta="right"><Money value={fill.charges[key]} /></Table.Td>)}
                <Table.Td ta="right"><Money value={fill.charges_paise} /></Table.Td>
                <Table.Td ta="right"><Money value={fill.net_pnl_paise} signed /></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          {day !== undefined && (
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={7}>Day total ({day.fills} fills, {day.orders} orders placed)</Table.Th>
                <Table.Th ta="right"><Money value={day.realised_paise} /></Table.Th>
                {CHARGE_COLUMNS.map(([key]) => <Table.Th key={key} ta="right"><Money value={day.charges[key]} /></Table.Th>)}
                <Table.Th ta="right"><Money value={day.charges_paise} /></Table.Th>
                <Table.Th ta="right"><Money value={day.net_pnl_paise} signed /></Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

const accountKey = (row: { readonly user_id: string; readonly user_broker_id: string | null }): string => `${row.user_id}/${row.user_broker_id ?? ''}`;

export interface ReportViewProps {
  readonly report: TradingReport;
  /** Opens (a date) or closes (null) the contract note of that day. */
  readonly onNoteDate: (date: string | null) => void;
  /** The note is being fetched for this date. */
  readonly noteLoading?: string | null;
}

/** The whole report, read-only. */
export function ReportView({ report, onNoteDate, noteLoading }: ReportViewProps) {
  const { total, mode } = report;
  const noteAccounts = new Map<string, FillLine[]>();
  for (const fill of report.note) noteAccounts.set(accountKey(fill), [...(noteAccounts.get(accountKey(fill)) ?? []), fill]);
  const noteDays = new Map(report.days.filter((day) => day.date === report.note_date).map((day) => [accountKey(day), day]));
  return (
    <Stack gap="lg" className="report-printable" data-report-print>
      <Text size="sm" c="dimmed" data-testid="report-scope">
        {mode} trading, {report.from} to {report.to} (IST, both days included). Backtests are never included. P&L is what the fills
        booked: realised P&L less charges; open positions add only their charges until they are closed.
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        <Stat label="Net P&L" testId="report-total-net"><Money value={total.net_pnl_paise} signed testId="report-total-net-value" /></Stat>
        <Stat label="Realised" testId="report-total-realised"><Money value={total.realised_paise} /></Stat>
        <Stat label="Charges paid" testId="report-total-charges"><Money value={total.charges_paise} /></Stat>
        <Stat label="Orders" testId="report-total-orders">{total.orders.toLocaleString('en-IN')}</Stat>
        <Stat label="Fills" testId="report-total-fills">{total.fills.toLocaleString('en-IN')}</Stat>
        <Stat label="Max drawdown" testId="report-total-drawdown"><Money value={total.max_drawdown_paise} /></Stat>
      </SimpleGrid>
      <ChargesTable figures={total} />
      <FigureTable title="By user" testId="report-users" rows={report.users} empty="No users in this report." leading={['User']}
        keyOf={(row) => row.user_id} cells={(row) => <Table.Td>{row.name}</Table.Td>} />
      <FigureTable title="By strategy" testId="report-strategies" rows={report.strategies} empty="No strategy traded or ordered in this range."
        leading={['User', 'Strategy']} keyOf={(row) => `${row.user_id}/${row.strategy_id ?? ''}`}
        cells={(row) => <><Table.Td>{row.user_name}</Table.Td><Table.Td>{row.name}</Table.Td></>} />
      <FigureTable title="By broker account" testId="report-accounts" rows={report.accounts} empty="No account traded or ordered in this range."
        leading={['User', 'Account']} keyOf={accountKey}
        cells={(row) => <><Table.Td>{row.user_name}</Table.Td><Table.Td>{accountLabel(row, mode)}</Table.Td></>} />
      <FigureTable title="Day reports" testId="report-days" rows={report.days} empty="No trading day in this range."
        leading={['Date', 'User', 'Account']} keyOf={(row) => `${row.date}/${accountKey(row)}`}
        cells={(row) => <><Table.Td>{row.date}</Table.Td><Table.Td>{row.user_name}</Table.Td><Table.Td>{accountLabel(row, mode)}</Table.Td></>}
        action={(row) => row.fills === 0 ? MISSING_VALUE : (
          <Button size="compact-xs" variant="light" loading={noteLoading === row.date} onClick={() => onNoteDate(row.date)}
            data-testid={`report-note-${row.date}`}>
            Contract note
          </Button>
        )} />
      {report.note_date !== null && (
        <Stack gap="sm" className="report-section" data-testid="report-note">
          <Group justify="space-between">
            <Title order={3} size="h4">Contract note, {report.note_date}</Title>
            <Button size="compact-sm" variant="subtle" onClick={() => onNoteDate(null)} data-report-noprint>Close the note</Button>
          </Group>
          {report.note.length === 0 ? <Text c="dimmed" size="sm">No fills on {report.note_date}.</Text>
            : [...noteAccounts.entries()].map(([key, fills]) => <NoteTable key={key} fills={fills} day={noteDays.get(key)} mode={mode} />)}
        </Stack>
      )}
    </Stack>
  );
}

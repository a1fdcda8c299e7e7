// /reports (docs/PRODUCT.md sections 2 and 6: manager, superadmin): the trading report of the users the
// signed-in person reports on (a manager's managed users, a superadmin's everyone) over an IST date
// range, PAPER or LIVE (never backtests), computed by the server from the stored fills; a day's
// contract note; the CSV download named per docs/PRODUCT.md section 9 (first two letters of the
// profile name uppercased plus a timestamp); printing; and read-only links to the report.
import { Alert, Button, Group, Loader, MultiSelect, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { useAuthState } from '../../../auth/auth-service';
import { downloadFileName } from '../../../format/format';
import { asIsoDate, defaultDateRange, istToday } from '../../../format/date-ranges';
import { downloadText, toCsv } from '../parts/csv';
import { QueryError } from '../research/query-feedback';
import { REPORT_CSV_HEADER, reportCsvRows } from './report-csv';
import { TRADING_REPORT_QUERY, type TradingReport } from './report-data';
import { ReportView } from './ReportView';
import { ShareLinks } from './ShareLinks';

const MODES = ['PAPER', 'LIVE'] as const;

export function ReportsScreen() {
  const initial = useMemo(() => defaultDateRange(), []);
  const [from, setFrom] = useState<string>(initial.from);
  const [to, setTo] = useState<string>(initial.to);
  const [mode, setMode] = useState<string>('PAPER');
  const [chosen, setChosen] = useState<string[]>([]);
  const [noteDate, setNoteDate] = useState<string | null>(null);
  const profileName = useAuthState((snapshot) => snapshot.context.session?.user?.displayName ?? '');
  const validRange = asIsoDate(from) !== undefined && asIsoDate(to) !== undefined && from <= to;
  const noteInRange = noteDate !== null && noteDate >= from && noteDate <= to ? noteDate : null;
  const userIds = chosen.length === 0 ? undefined : chosen;
  const variables = useMemo(() => ({ from, to, mode, userIds: userIds ?? null, noteDate: noteInRange }), [from, to, mode, userIds, noteInRange]);
  const [result, refetch] = useQuery<{ trading_report: TradingReport }>({
    query: TRADING_REPORT_QUERY, variables, pause: !validRange, requestPolicy: 'cache-and-network',
  });
  // While another range, mode or note loads, the report last shown stays (with the loader) rather than blinking out.
  const shown = useRef<TradingReport | undefined>(undefined);
  if (result.data !== undefined) shown.current = result.data.trading_report;
  const report = result.data?.trading_report ?? (result.fetching && result.error === undefined ? shown.current : undefined);
  // The user picker offers everyone the last unfiltered report listed (the server decides who that is).
  const everyone = useRef<ReadonlyArray<{ value: string; label: string }>>([]);
  if (report !== undefined && chosen.length === 0) everyone.current = report.users.map((user) => ({ value: user.user_id, label: user.name }));

  function downloadCsv(): void {
    if (report === undefined) return;
    const name = downloadFileName({ profileName, base: `report-${report.mode.toLowerCase()}-${report.from}-${report.to}`, extension: 'csv', nowMs: Date.now() });
    downloadText(name, toCsv(REPORT_CSV_HEADER, reportCsvRows(report)));
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2}>Reports</Title>
        <Group gap="xs" data-report-noprint>
          <Button variant="light" size="xs" onClick={downloadCsv} disabled={report === undefined} data-testid="report-csv">Download CSV</Button>
          <Button variant="light" size="xs" onClick={() => window.print()} disabled={report === undefined} data-testid="report-print">Print</Button>
          <Button variant="subtle" size="xs" onClick={() => refetch({ requestPolicy: 'network-only' })} disabled={!validRange}>Refresh</Button>
        </Group>
      </Group>
      <Group align="flex-end" gap="md" data-report-noprint>
        <TextInput label="From" type="date" w={170} value={from} max={to} onChange={(event) => setFrom(event.currentTarget.value)} data-testid="report-from" />
        <TextInput label="To" type="date" w={170} value={to} min={from} max={istToday()} onChange={(event) => setTo(event.currentTarget.value)} data-testid="report-to" />
        <Stack gap={4}>
          <Text size="sm" fw={500}>Mode</Text>
          <SegmentedControl data={[...MODES]} value={mode} onChange={setMode} aria-label="Mode" data-testid="report-mode" />
        </Stack>
        <MultiSelect label="Users" placeholder={chosen.length === 0 ? 'All your users' : undefined} w={320} searchable clearable
          data={[...everyone.current]} value={chosen} onChange={setChosen} data-testid="report-users-filter" />
        {result.fetching && <Loader size="sm" />}
      </Group>
      {!validRange && <Alert color="yellow" variant="light">Choose a start date on or before the end date.</Alert>}
      <QueryError error={result.error} title="Could not load the report" />
      {report !== undefined && report.users.length === 0 && (
        <Text c="dimmed">You have no users to report on: a manager reports on the users they manage.</Text>
      )}
      {report !== undefined && (
        <ReportView report={report} onNoteDate={setNoteDate} noteLoading={result.fetching ? noteInRange : null} />
      )}
      {report !== undefined && (
        <ShareLinks scope={{ from, to, mode, userIds }} disabled={!validRange || report.users.length === 0} />
      )}
    </Stack>
  );
}

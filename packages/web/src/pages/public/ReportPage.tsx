// /report (docs/PRODUCT.md section 2: noauth). With #token=... it is a shared trading report: read-only,
// no sign-in, asked of the server with the token alone (GraphQL `shared_report`); a token the
// server does not accept (unknown, revoked, expired) shows only "This report link is no longer
// valid". Without a token it is the page on reporting a problem (./Report).
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from 'urql';
import { downloadFileName } from '../../format/format';
import { downloadText, toCsv } from '../trading/parts/csv';
import { REPORT_CSV_HEADER, reportCsvRows } from '../trading/reports/report-csv';
import { SHARED_REPORT_QUERY, type TradingReport } from '../trading/reports/report-data';
import { ReportView } from '../trading/reports/ReportView';
import { Component as ReportAProblem } from './Report';

export const LINK_NOT_VALID = 'This report link is no longer valid';

function SharedReport({ token }: { readonly token: string }) {
  const [noteDate, setNoteDate] = useState<string | null>(null);
  const [result] = useQuery<{ shared_report: { label: string; report: TradingReport } }>({
    query: SHARED_REPORT_QUERY, variables: { token, noteDate }, requestPolicy: 'network-only',
  });
  // While a contract note loads, the report already shown stays.
  const shown = useRef<{ label: string; report: TradingReport } | undefined>(undefined);
  if (result.data !== undefined) shown.current = result.data.shared_report;
  const shared = result.data?.shared_report ?? (result.fetching ? shown.current : undefined);
  if (result.error !== undefined) {
    const refused = result.error.graphQLErrors.some((error) => error.message === LINK_NOT_VALID);
    return (
      <Alert color="red" variant="light" title={refused ? LINK_NOT_VALID : 'Could not load the report'} data-testid="shared-report-invalid">
        {refused ? 'Ask whoever sent it for a new link.' : 'Try again in a moment.'}
      </Alert>
    );
  }
  if (shared === undefined) return <Group justify="center" py="xl"><Loader /></Group>;
  const { report } = shared;
  function downloadCsv(): void {
    const name = downloadFileName({ profileName: shared?.label ?? '', base: `report-${report.mode.toLowerCase()}-${report.from}-${report.to}`, extension: 'csv', nowMs: Date.now() });
    downloadText(name, toCsv(REPORT_CSV_HEADER, reportCsvRows(report)));
  }
  return (
    <Stack gap="md" data-testid="shared-report">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h2">{shared.label === '' ? 'Trading report' : shared.label}</Title>
          <Text size="sm" c="dimmed">A read-only report shared with you.</Text>
        </Stack>
        <Group gap="xs" data-report-noprint>
          <Button variant="light" size="xs" onClick={downloadCsv}>Download CSV</Button>
          <Button variant="light" size="xs" onClick={() => window.print()}>Print</Button>
        </Group>
      </Group>
      <ReportView report={report} onNoteDate={setNoteDate} noteLoading={result.fetching ? noteDate : null} />
    </Stack>
  );
}

/** The token is in the fragment (#token=...): a browser never sends it to a server, so no access log or proxy keeps it. */
export function Component() {
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  if (token === null) return <ReportAProblem />;
  return <SharedReport token={token} />;
}

// The licence figures and alerts of docs/PRODUCT.md sections 3 and 4 for one user: per licence
// (backtest credits, strategy slots) the total, used, percent used, days left, percent of days
// elapsed and the alert level, with the same rules as the shell's credit notice
// (app/credit-alerts.ts). No live licence of a kind shows "none" for it.
import { Badge, Table, Text } from '@mantine/core';
import { licenceStatus, type LicenceStatus } from '../../../app/credit-alerts';
import { istToday } from '../../../format/date-ranges';
import type { LicenceRow } from './user-admin-documents';

const LABELS: Readonly<Record<string, string>> = { backtest: 'Backtest credits (candles)', strategy: 'Strategy licences (slots)' };

function level(status: LicenceStatus | undefined) {
  if (status === undefined) return <Badge color="gray" variant="light">none</Badge>;
  if (status.level === 'critical') return <Badge color="red">critical</Badge>;
  if (status.level === 'warning') return <Badge color="yellow">warning</Badge>;
  return <Badge color="green" variant="light">ok</Badge>;
}

const count = (value: number): string => value.toLocaleString('en-IN');

export function LicenceFigures({ licences }: { readonly licences: readonly LicenceRow[] }) {
  const today = istToday();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table data-testid="licence-figures">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Licence</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th ta="right">Used</Table.Th>
            <Table.Th ta="right">Used %</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th ta="right">Days left</Table.Th>
            <Table.Th ta="right">Days elapsed %</Table.Th>
            <Table.Th>Alert</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {licences.map((licence) => {
            const status = licenceStatus({
              totalCredits: licence.total_credits,
              utilizedCredits: licence.utilized_credits,
              expireOn: licence.expire_on ?? undefined,
              activatedOn: licence.activated_on ?? undefined,
            }, today);
            return (
              <Table.Tr key={licence.licence_type} data-testid={`licence-${licence.licence_type}`}>
                <Table.Td>{LABELS[licence.licence_type] ?? licence.licence_type}</Table.Td>
                <Table.Td ta="right" data-testid="licence-total">{count(licence.total_credits)}</Table.Td>
                <Table.Td ta="right">{count(licence.utilized_credits)}</Table.Td>
                <Table.Td ta="right">{status ? `${status.percentUtilized.toFixed(2)}%` : '-'}</Table.Td>
                <Table.Td>{licence.expire_on ?? '-'}</Table.Td>
                <Table.Td ta="right" data-testid="licence-days-left">{status ? status.daysLeft : '-'}</Table.Td>
                <Table.Td ta="right">{status ? `${status.percentDaysElapsed.toFixed(2)}%` : '-'}</Table.Td>
                <Table.Td>{level(status)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {licences.length === 0 && <Text c="dimmed" size="sm">No licences.</Text>}
    </Table.ScrollContainer>
  );
}

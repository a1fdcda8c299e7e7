// Read-only links to a report (/report#token=...): make one for the report on screen (its users,
// range and mode), see its address once with a copy button (the server keeps only the token's
// hash), list the links made so far and revoke them. A revoked link says only that it is no
// longer valid.
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { showToast } from '../../../app/toast';
import { MISSING_VALUE } from '../../../format/format';
import { QueryError, errorMessage } from '../research/query-feedback';
import { CREATE_SHARE_MUTATION, MY_SHARES_QUERY, REVOKE_SHARE_MUTATION, shareUrl, type ReportShare } from './report-data';

/** What the link covers: the report on screen. */
export interface ShareScope {
  readonly from: string;
  readonly to: string;
  readonly mode: string;
  /** undefined: all the reporter's users. */
  readonly userIds: readonly string[] | undefined;
}

/** The end of an IST calendar day as a UTC timestamp. */
function endOfIstDay(date: string): string {
  return new Date(Date.parse(`${date}T23:59:59+05:30`)).toISOString();
}

function statusOf(share: ReportShare): { label: string; color: string } {
  if (share.revoked_at !== null) return { label: 'Revoked', color: 'gray' };
  if (!share.active) return { label: 'Expired', color: 'gray' };
  return { label: 'Active', color: 'teal' };
}

function NewLinkDialog({ url, onClose }: { readonly url: string | undefined; readonly onClose: () => void }) {
  return (
    <Modal opened={url !== undefined} onClose={onClose} title="Your new report link" size="lg" closeOnClickOutside={false}>
      <Stack gap="sm">
        <Alert color="yellow">Copy the link now: it is shown only once. Anyone with it can read this report until you revoke it.</Alert>
        <Code block data-testid="report-share-url">{url ?? ''}</Code>
        <Group justify="space-between">
          <CopyButton value={url ?? ''}>
            {({ copied, copy }) => <Button onClick={copy} color={copied ? 'teal' : 'blue'} data-testid="report-share-copy">{copied ? 'Copied' : 'Copy link'}</Button>}
          </CopyButton>
          <Button variant="default" onClick={onClose}>I have copied it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ShareLinks({ scope, disabled }: { readonly scope: ShareScope; readonly disabled: boolean }) {
  const [label, setLabel] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [url, setUrl] = useState<string | undefined>(undefined);
  const [shares, refetch] = useQuery<{ my_report_shares: ReportShare[] }>({ query: MY_SHARES_QUERY, requestPolicy: 'cache-and-network' });
  const [created, create] = useMutation<{ create_report_share: { token: string; share: ReportShare } }>(CREATE_SHARE_MUTATION);
  const [revoked, revoke] = useMutation<{ revoke_report_share: ReportShare }>(REVOKE_SHARE_MUTATION);
  const labelTooLong = label.trim().length > 120;

  async function makeLink(): Promise<void> {
    const result = await create({
      from: scope.from, to: scope.to, mode: scope.mode, userIds: scope.userIds ?? null, label: label.trim(),
      expiresAt: expiresOn === '' ? null : endOfIstDay(expiresOn),
    });
    if (result.error !== undefined) {
      showToast('error', errorMessage(result.error));
      return;
    }
    const token = result.data?.create_report_share.token;
    if (token !== undefined) setUrl(shareUrl(window.location.origin, token));
    setLabel('');
    refetch({ requestPolicy: 'network-only' });
  }

  async function revokeLink(share: ReportShare): Promise<void> {
    const result = await revoke({ shareId: share.share_id });
    if (result.error !== undefined) {
      showToast('error', errorMessage(result.error));
      return;
    }
    showToast('success', `The link${share.label === '' ? '' : ` "${share.label}"`} is revoked`);
    refetch({ requestPolicy: 'network-only' });
  }

  const rows = shares.data?.my_report_shares ?? [];
  return (
    <Stack gap="sm" data-report-noprint data-testid="report-shares">
      <Title order={3} size="h4">Share this report</Title>
      <Text size="sm" c="dimmed">
        A read-only link to this report ({scope.mode}, {scope.from} to {scope.to}, {scope.userIds === undefined ? 'all your users' : `${scope.userIds.length} chosen user(s)`}),
        for someone without an account. It shows only this report, and only users you still manage.
      </Text>
      <Group align="flex-end" gap="sm">
        <TextInput label="Label (optional)" w={260} value={label} maxLength={120} onChange={(event) => setLabel(event.currentTarget.value)}
          error={labelTooLong ? 'At most 120 characters' : undefined} data-testid="report-share-label" />
        <TextInput label="Expires after (optional)" type="date" w={190} value={expiresOn} onChange={(event) => setExpiresOn(event.currentTarget.value)} />
        <Button onClick={() => void makeLink()} loading={created.fetching} disabled={disabled || labelTooLong} data-testid="report-share-create">Create link</Button>
      </Group>
      <NewLinkDialog url={url} onClose={() => setUrl(undefined)} />
      <QueryError error={shares.error} title="Could not load your report links" />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped withTableBorder fz="sm" data-testid="report-share-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th><Table.Th>Users</Table.Th><Table.Th>Range</Table.Th><Table.Th>Mode</Table.Th><Table.Th>Made</Table.Th>
                <Table.Th>Expires</Table.Th><Table.Th>Status</Table.Th><Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((share) => {
                const status = statusOf(share);
                return (
                  <Table.Tr key={share.share_id} data-testid="report-share-row" data-share-id={share.share_id}>
                    <Table.Td>{share.label === '' ? MISSING_VALUE : share.label}</Table.Td>
                    <Table.Td>{share.user_names.join(', ')}</Table.Td>
                    <Table.Td>{share.from} to {share.to}</Table.Td>
                    <Table.Td>{share.mode}</Table.Td>
                    <Table.Td>{share.created_at.slice(0, 10)}</Table.Td>
                    <Table.Td>{share.expires_at === null ? 'Never' : share.expires_at.slice(0, 10)}</Table.Td>
                    <Table.Td><Badge variant="light" color={status.color}>{status.label}</Badge></Table.Td>
                    <Table.Td>
                      {share.active && (
                        <Button size="compact-xs" color="red" variant="light" loading={revoked.fetching} onClick={() => void revokeLink(share)}
                          data-testid="report-share-revoke">
                          Revoke
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

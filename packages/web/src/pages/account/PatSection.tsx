// Personal access tokens (auth README: POST /pat, GET /user/pats, DELETE /user/pats/:id). A new
// token is shown once, in a dialog; the server keeps only its hash. A session signed in more than
// 5 minutes ago is asked for the current password first (the auth service's fresh proof, as for a
// new security key; use-enrolment-proof.ts): the field appears when the server asks for it.
import { Alert, Button, Code, CopyButton, Group, Loader, Modal, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { addDays, istEpochMs, type IsoDate } from '@vyuha/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { asIsoDate, istToday } from '../../format/date-ranges';
import { formatDateTime } from '../../format/format';
import { type RequestState, withAccessToken, withElevation } from './account-helpers';
import { ProofPasswordField } from './ProofPasswordField';
import { useEnrolmentProof } from './use-enrolment-proof';

interface PatRow {
  readonly id: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly metadata: Record<string, unknown> | null;
}

const DEFAULT_LIFETIME_DAYS = 90;
/**
 * The last day a token may end on: the end of that IST day must fall within the server's default
 * AUTH_PAT_MAX_LIFETIME (365 days from now). A server configured shorter refuses with a message.
 */
const MAX_LIFETIME_DAYS = 364;

/** YYYY-MM-DD of the IST day `days` after today. */
function dayFromToday(days: number): IsoDate {
  return addDays(istToday(), days);
}

/** A token chosen to expire on a day lives to the end of that day in India. */
function endOfDayIst(date: IsoDate): string {
  return new Date(istEpochMs(date, '23:59:59')).toISOString();
}

function patName(row: PatRow): string {
  const name = row.metadata?.name;
  return typeof name === 'string' && name !== '' ? name : 'Unnamed token';
}

function NewTokenDialog({ token, onClose }: { readonly token: string | undefined; readonly onClose: () => void }) {
  return (
    <Modal opened={token !== undefined} onClose={onClose} title="Your new personal access token" size="lg" closeOnClickOutside={false}>
      <Stack gap="sm">
        <Alert color="yellow">Copy the token now. It will not be shown again.</Alert>
        <Code block data-testid="new-pat">{token ?? ''}</Code>
        <Group justify="space-between">
          <CopyButton value={token ?? ''}>
            {({ copied, copy }) => <Button onClick={copy} color={copied ? 'teal' : 'blue'}>{copied ? 'Copied' : 'Copy token'}</Button>}
          </CopyButton>
          <Button variant="default" onClick={onClose}>I have copied it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function PatSection() {
  const [rows, setRows] = useState<readonly PatRow[]>([]);
  const [loading, setLoading] = useState(true);
  const [name, setName] = useState('');
  const [expiresOn, setExpiresOn] = useState<string>(() => dayFromToday(DEFAULT_LIFETIME_DAYS));
  const [state, setState] = useState<RequestState>('idle');
  const [newToken, setNewToken] = useState<string | undefined>(undefined);
  const proof = useEnrolmentProof();

  const load = useCallback(async () => {
    setLoading(true);
    const result = await withAccessToken((token) => authApi.listPats(token));
    setLoading(false);
    if (result.ok) setRows(result.value);
    else showToast('error', result.error.message);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const tomorrow = dayFromToday(1);
  const lastDay = dayFromToday(MAX_LIFETIME_DAYS);
  const expiryDate = asIsoDate(expiresOn);
  const validDate = expiryDate !== undefined && expiryDate >= tomorrow && expiryDate <= lastDay;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!validDate || expiryDate === undefined) return;
    const proofFields = proof.body();
    if (!proofFields) {
      setState('error');
      return;
    }
    setState('requesting');
    const label = name.trim();
    const body = { expiresAt: endOfDayIst(expiryDate), metadata: label ? { name: label } : {}, ...proofFields };
    const result = await withElevation((token) => authApi.createPat(body, token));
    if (!result.ok) {
      setState('error');
      if (!proof.refused(result.error)) showToast('error', result.error.message);
      return;
    }
    setState('success');
    proof.reset();
    setName('');
    setNewToken(result.value.personalAccessToken);
    void load();
  };

  const revoke = async (row: PatRow) => {
    const accepted = await confirm({
      title: 'Revoke token',
      message: `Revoke "${patName(row)}"? Programs using it stop working at once.`,
      acceptLabel: 'Revoke',
      rejectLabel: 'Cancel',
      danger: true,
    });
    if (!accepted) return;
    const result = await withAccessToken((token) => authApi.revokePat(row.id, token));
    if (!result.ok) {
      showToast('error', result.error.message);
      return;
    }
    showToast('success', 'Token revoked');
    void load();
  };

  return (
    <Paper withBorder p="md">
      <Title order={3} mb="sm">Personal access tokens</Title>
      <Stack gap="md">
        <Text size="sm">A token signs a program in as you (POST /v1/auth/signin/pat) until it expires or you revoke it.</Text>
        <form onSubmit={(event) => void create(event)}>
          <Stack gap="xs">
            <Group align="flex-end">
              <TextInput label="Name" placeholder="e.g. trading script" value={name} maxLength={100} onChange={(event) => setName(event.currentTarget.value)} />
              <TextInput
                label="Expires on"
                type="date"
                value={expiresOn}
                min={tomorrow}
                max={lastDay}
                onChange={(event) => setExpiresOn(event.currentTarget.value)}
                error={validDate ? undefined : 'Pick a day after today, at most a year ahead'}
                required
              />
              <Button type="submit" loading={state === 'requesting'} disabled={!validDate} data-testid="pat-create">Create token</Button>
            </Group>
            <ProofPasswordField proof={proof} testId="pat-current-password" disabled={state === 'requesting'} />
          </Stack>
        </form>
        {loading && rows.length === 0 ? <Loader size="sm" aria-label="Loading tokens" /> : rows.length === 0 ? (
          <Text size="sm" c="dimmed">No active tokens.</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>{patName(row)}</Table.Td>
                    <Table.Td>{formatDateTime(Date.parse(row.createdAt))}</Table.Td>
                    <Table.Td>{formatDateTime(Date.parse(row.expiresAt))}</Table.Td>
                    <Table.Td>
                      <Button size="compact-sm" color="red" variant="subtle" onClick={() => void revoke(row)}>Revoke</Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <NewTokenDialog token={newToken} onClose={() => setNewToken(undefined)} />
    </Paper>
  );
}

// /ensembleSync and /ensembleSync/:id (administrator, superadmin; the route's role check and the
// server's actions refuse every other role): the list of ensembles with a form to create one, and
// one ensemble's operations screen (ensemble/EnsembleDetail.tsx: drift per account, preview and
// apply a sync, history, members and accounts).
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { showToast } from '../../app/toast';
import { MISSING_VALUE } from '../../format/format';
import { QueryError, errorMessage } from './research/query-feedback';
import { EnsembleDetail } from './ensemble/EnsembleDetail';
import { CREATE_ENSEMBLE_MUTATION, ENSEMBLES_QUERY } from './ensemble/ensemble-data';
import type { EnsembleSummary } from './ensemble/ensemble-data';

function EnsembleList() {
  const navigate = useNavigate();
  const [list] = useQuery<{ ensembles: EnsembleSummary[] }>({ query: ENSEMBLES_QUERY, requestPolicy: 'cache-and-network' });
  const [created, create] = useMutation<{ create_ensemble: { ensemble_id: string } }>(CREATE_ENSEMBLE_MUTATION);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const nameError = name.trim().length > 120 ? 'Name: at most 120 characters' : undefined;

  async function submit(): Promise<void> {
    const result = await create({ name: name.trim() });
    if (result.error !== undefined) {
      setError(errorMessage(result.error));
      return;
    }
    showToast('success', `Ensemble ${name.trim()} created`);
    const id = result.data?.create_ensemble.ensemble_id;
    if (id !== undefined) void navigate(`/ensembleSync/${id}`);
  }

  const rows = list.data?.ensembles ?? [];
  return (
    <Stack gap="md">
      <Title order={2}>Ensemble Sync</Title>
      <Text size="sm" c="dimmed">Sets of strategies whose positions are kept in sync across client accounts.</Text>
      <Paper withBorder p="md">
        <Group align="flex-end" wrap="wrap" gap="xs">
          <TextInput label="New ensemble" placeholder="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={nameError} w={280}
            data-testid="ensemble-new-name" />
          <Button onClick={() => void submit()} loading={created.fetching} disabled={name.trim() === '' || nameError !== undefined} data-testid="ensemble-create">Create</Button>
        </Group>
        {error !== undefined && <Alert color="red" mt="sm">{error}</Alert>}
      </Paper>
      <QueryError error={list.error} />
      <Table.ScrollContainer minWidth={560}>
        <Table striped highlightOnHover data-testid="ensemble-list">
          <Table.Thead>
            <Table.Tr><Table.Th>Ensemble</Table.Th><Table.Th>Made by</Table.Th><Table.Th ta="right">Members</Table.Th><Table.Th ta="right">Accounts</Table.Th><Table.Th>Last sync</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !list.fetching && <Table.Tr><Table.Td colSpan={5}><Text size="sm" c="dimmed">No ensembles yet.</Text></Table.Td></Table.Tr>}
            {rows.map((row) => (
              <Table.Tr key={row.ensemble_id}>
                <Table.Td><Link to={`/ensembleSync/${row.ensemble_id}`}>{row.name}</Link></Table.Td>
                <Table.Td>{row.owner_name}</Table.Td>
                <Table.Td ta="right">{row.members}</Table.Td>
                <Table.Td ta="right">{row.accounts === 0 ? <Badge color="gray">none</Badge> : row.accounts}</Table.Td>
                <Table.Td>{row.last_sync_at === null ? MISSING_VALUE : new Date(row.last_sync_at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

export function Component() {
  const { id } = useParams();
  return id === undefined ? <EnsembleList /> : <EnsembleDetail id={id} />;
}

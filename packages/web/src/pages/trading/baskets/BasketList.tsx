// /baskets: the user's saved baskets, live (a save or delete anywhere shows at once), each with its
// legs in words; a new basket (named, with one leg to start from) opens its editor; delete asks
// first. Writing buttons show only for roles that may write strategies.
import { Anchor, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { istDate } from '@vyuha/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useSubscription } from 'urql';
import { useReadOnly } from '../../../app/update-mode';
import { formatDateTime, parseTimestamp } from '../../../format/format';
import { errorMessage, QueryState } from '../parts/QueryState';
import { STRATEGY_WRITER_ROLES, useSubject } from '../parts/use-subject';
import { legsOfRows, newLegRow } from './basket-form';
import { BASKETS_SUBSCRIPTION, DELETE_BASKET, SAVE_BASKET, type BasketRow } from './basket-documents';

/** The legs in a line: "BUY 1 x NIFTY26DECFUT, SELL 2 x NIFTY26DEC24000CE". */
export function legsSummary(row: BasketRow): string {
  const legs = row.config.basket?.legs ?? [];
  if (legs.length === 0) return 'No legs';
  return legs.map((leg) => `${leg.side} ${leg.lots ?? leg.quantity ?? 0}${leg.lots === undefined ? '' : ' lot'} ${leg.symbol}`).join(', ');
}

function NewBasket() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [state, save] = useMutation(SAVE_BASKET);
  const navigate = useNavigate();
  const create = async (): Promise<void> => {
    const { legs } = legsOfRows([newLegRow(istDate(Date.now()))]);
    const result = await save({ name, product: 'MIS', legs });
    const id = (result.data as { save_basket?: { strategy_id: string } } | undefined)?.save_basket?.strategy_id;
    if (id !== undefined) void navigate(`/baskets/${id}`);
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="basket-new">New basket</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="New basket">
        <Stack>
          <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={80} data-autofocus data-testid="basket-new-name" />
          <Text size="sm" c="dimmed">It starts with one leg, a lot of the next NIFTY future; add and change legs in the editor.</Text>
          {state.error && <Text c="red" size="sm" role="alert">{errorMessage(state.error)}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>Cancel</Button>
            <Button onClick={() => void create()} loading={state.fetching} disabled={name.trim() === ''} data-testid="basket-new-create">Create</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function DeleteBasket({ row }: { readonly row: BasketRow }) {
  const [open, setOpen] = useState(false);
  const [state, remove] = useMutation(DELETE_BASKET);
  return (
    <>
      <Button size="compact-xs" color="red" variant="light" onClick={() => setOpen(true)}>Delete</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${row.name}?`}>
        <Stack>
          <Text size="sm">The basket is removed; orders and positions it placed stay on /positions and in reports.</Text>
          {state.error && <Text c="red" size="sm" role="alert">{errorMessage(state.error)}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>Keep it</Button>
            <Button color="red" loading={state.fetching} onClick={() => void remove({ strategy_id: row.strategy_id }).then((result) => { if (!result.error) setOpen(false); })}>Delete</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

export function BasketList() {
  const { userId, role } = useSubject();
  const readOnly = useReadOnly();
  const canWrite = role !== undefined && STRATEGY_WRITER_ROLES.includes(role) && !readOnly;
  const [result] = useSubscription<{ strategies: BasketRow[] }>({ query: BASKETS_SUBSCRIPTION, variables: { user_id: userId }, pause: userId === undefined });
  const rows = result.data?.strategies ?? [];
  return (
    <Stack gap="md" data-testid="basket-list">
      <Group justify="space-between" wrap="wrap">
        <Text c="dimmed" size="sm">Legs placed together on paper, all or nothing.</Text>
        {canWrite && <NewBasket />}
      </Group>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the baskets">
        {rows.length === 0 ? <Text c="dimmed">You have no baskets yet.</Text> : (
          <Table.ScrollContainer minWidth={560}>
            <Table fz="sm" verticalSpacing={6}>
              <Table.Thead><Table.Tr><Table.Th>Basket</Table.Th><Table.Th>Legs</Table.Th><Table.Th>Saved</Table.Th><Table.Th /></Table.Tr></Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.strategy_id} data-testid={`basket-row-${row.strategy_id}`}>
                    <Table.Td><Anchor component={Link} to={`/baskets/${row.strategy_id}`} fw={600}>{row.name}</Anchor></Table.Td>
                    <Table.Td>{legsSummary(row)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(parseTimestamp(row.updated_at) ?? 0)}</Table.Td>
                    <Table.Td>{canWrite && <DeleteBasket row={row} />}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Stack>
  );
}

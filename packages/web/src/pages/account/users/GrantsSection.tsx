// A user's credits and licences on /users/edit?user=<id>: the licence figures and alerts, every
// grant (BACKTEST credits in candles, STRATEGIES slots with how many are in use) and, for staff,
// a form to grant more and an Extend action (add credits, move the expiry later). The server
// checks every value again and names the field it refuses; nothing changes then.
import { Badge, Button, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { istToday } from '../../../format/date-ranges';
import { formatDate } from '../../../format/format';
import { addDays, type IsoDate } from '@vyuha/core';
import { graphqlErrorMessage } from '../account-helpers';
import { LicenceFigures } from './LicenceFigures';
import {
  EXTEND_GRANT_MUTATION, GRANT_CATEGORIES, GRANT_CREDIT_MUTATION, type GrantCategory, type GrantRow, type LicenceRow,
} from './user-admin-documents';

const UNIT: Readonly<Record<GrantCategory, string>> = { BACKTEST: 'candles', STRATEGIES: 'strategy slots' };

/** A form value as a whole number, or undefined. */
function whole(value: string | number): number | undefined {
  const number = typeof value === 'number' ? value : Number(value);
  return value === '' || !Number.isInteger(number) ? undefined : number;
}

function GrantForm({ userId, onChanged }: { readonly userId: string; readonly onChanged: () => void }) {
  const [state, grant] = useMutation(GRANT_CREDIT_MUTATION);
  const [category, setCategory] = useState<GrantCategory>('BACKTEST');
  const [credits, setCredits] = useState<string | number>('');
  const [expiry, setExpiry] = useState<string>(addDays(istToday() as IsoDate, 30));
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | undefined>(undefined);

  const submit = async () => {
    const amount = whole(credits);
    if (amount === undefined || amount < 1) {
      setFieldError({ field: 'credits', message: `Enter a whole number of ${UNIT[category]} above 0` });
      return;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry) || expiry < istToday()) {
      setFieldError({ field: 'expiry', message: `Enter an expiry date today (${istToday()}) or later` });
      return;
    }
    setFieldError(undefined);
    const result = await grant({ userId, category, credits: amount, expiry });
    if (result.error) {
      const message = graphqlErrorMessage(result.error);
      const field = /^(\w+): /.exec(message)?.[1];
      setFieldError({ field: field ?? 'credits', message });
      showToast('error', message);
      return;
    }
    showToast('success', `Granted ${amount.toLocaleString('en-IN')} ${UNIT[category]} until ${expiry}`);
    setCredits('');
    onChanged();
  };

  return (
    <Group align="flex-start" gap="sm" data-testid="grant-form">
      <Select label="Grant" data={[...GRANT_CATEGORIES]} value={category} onChange={(value) => setCategory((value ?? 'BACKTEST') as GrantCategory)}
        allowDeselect={false} w={150} data-testid="grant-category" />
      <NumberInput label={`Credits (${UNIT[category]})`} value={credits} onChange={setCredits} clampBehavior="none" allowDecimal={false} w={200}
        error={fieldError?.field === 'credits' ? fieldError.message : undefined} data-testid="grant-credits" />
      <TextInput type="date" label="Expiry" value={expiry} onChange={(event) => setExpiry(event.currentTarget.value)} w={170}
        error={fieldError?.field === 'expiry' ? fieldError.message : undefined} data-testid="grant-expiry" />
      <Button mt={25} onClick={() => void submit()} loading={state.fetching} data-testid="grant-submit">Grant</Button>
      {fieldError !== undefined && !['credits', 'expiry'].includes(fieldError.field) && <Text c="red" size="sm" mt={30}>{fieldError.message}</Text>}
    </Group>
  );
}

function ExtendDialog({ grant, onClose, onChanged }: { readonly grant: GrantRow; readonly onClose: () => void; readonly onChanged: () => void }) {
  const [state, extend] = useMutation(EXTEND_GRANT_MUTATION);
  const [addCredits, setAddCredits] = useState<string | number>(0);
  const [expiry, setExpiry] = useState<string>(grant.expiry);
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = async () => {
    const amount = whole(addCredits);
    if (amount === undefined || amount < 0) {
      setError(`add_credits: enter a whole number of ${UNIT[grant.category]}, 0 or more`);
      return;
    }
    const result = await extend({ grantId: grant.id, category: grant.category, addCredits: amount, ...(expiry === grant.expiry ? {} : { expiry }) });
    if (result.error) {
      setError(graphqlErrorMessage(result.error));
      return;
    }
    showToast('success', 'Grant extended');
    onChanged();
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={`Extend ${grant.category} grant`}>
      <Stack>
        <Text size="sm">Now {grant.credits.toLocaleString('en-IN')} {UNIT[grant.category]} until {grant.expiry}.</Text>
        <NumberInput label={`Add ${UNIT[grant.category]}`} value={addCredits} onChange={setAddCredits} clampBehavior="none" allowDecimal={false} data-testid="extend-credits" />
        <TextInput type="date" label="New expiry" value={expiry} onChange={(event) => setExpiry(event.currentTarget.value)} data-testid="extend-expiry" />
        {error !== undefined && <Text c="red" size="sm" role="alert">{error}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={state.fetching} data-testid="extend-submit">Extend</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function GrantsSection({ userId, licences, grants, editable, onChanged }: {
  readonly userId: string;
  readonly licences: readonly LicenceRow[];
  readonly grants: readonly GrantRow[];
  readonly editable: boolean;
  readonly onChanged: () => void;
}) {
  const [extending, setExtending] = useState<GrantRow | undefined>(undefined);
  return (
    <Stack gap="md">
      <LicenceFigures licences={licences} />
      {editable && <GrantForm userId={userId} onChanged={onChanged} />}
      <Title order={5}>Grants</Title>
      {grants.length === 0 ? <Text c="dimmed" size="sm">No grants.</Text> : (
        <Table.ScrollContainer minWidth={560}>
          <Table data-testid="grants-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Category</Table.Th>
                <Table.Th ta="right">Credits</Table.Th>
                <Table.Th ta="right">In use</Table.Th>
                <Table.Th>Expiry</Table.Th>
                <Table.Th>Granted</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.map((grant) => (
                <Table.Tr key={`${grant.category}-${grant.id}`} data-testid="grant-row">
                  <Table.Td>{grant.category}</Table.Td>
                  <Table.Td ta="right">{grant.credits.toLocaleString('en-IN')}</Table.Td>
                  <Table.Td ta="right">{grant.utilized ?? '-'}</Table.Td>
                  <Table.Td>{grant.expiry} {!grant.live && <Badge size="xs" color="gray">expired</Badge>}</Table.Td>
                  <Table.Td>{formatDate(Date.parse(grant.created_at))}</Table.Td>
                  <Table.Td>{editable && <Button size="xs" variant="subtle" onClick={() => setExtending(grant)}>Extend</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {extending !== undefined && <ExtendDialog grant={extending} onClose={() => setExtending(undefined)} onChanged={onChanged} />}
    </Stack>
  );
}

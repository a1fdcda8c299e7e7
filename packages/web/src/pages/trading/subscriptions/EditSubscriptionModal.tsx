// Edit a subscription's sizing, mode (PAPER or LIVE, as the subscribe dialog offers it) and broker
// account. A new investment is appended to its investment history, dated today (the earlier
// entries stay; docs/PRODUCT.md section 5), and takes effect at the next entry; a new mode or
// account from the publisher's next run.
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { formatRupees } from '@vyuha/core';
import { currentInvestmentPaise } from '../parts/investment';
import { useSubject } from '../parts/use-subject';
import { followIssue, PAPER_ACCOUNT, type FollowDraft } from './follow-mode';
import { FollowModeFields } from './FollowModeFields';
import { MY_BROKERS, type BrokerAccount } from './queries';
import { readSizing, SizingFields, type SizingDraft } from './SizingFields';
import type { SubscriptionRow } from './subscription-model';
import { useUpdateSubscription } from './use-update-subscription';

function historyOf(row: SubscriptionRow): Array<{ date: string; amount_paise: number }> {
  const entries = Array.isArray(row.investment_history) ? row.investment_history as Array<{ date: string; amount_paise: number }> : [];
  return [...entries].sort((a, b) => (a.date < b.date ? 1 : -1));
}

export function EditSubscriptionModal({ row, onClose }: { readonly row: SubscriptionRow | undefined; readonly onClose: () => void }) {
  const [draft, setDraft] = useState<SizingDraft>({ sizing: 'quantity', quantity: 1, investment: '' });
  const [follow, setFollow] = useState<FollowDraft>({ mode: 'PAPER', broker: PAPER_ACCOUNT });
  const { update, busy } = useUpdateSubscription();
  const { userId, role } = useSubject();
  const [accounts] = useQuery<{ user_brokers: BrokerAccount[] }>({ query: MY_BROKERS, variables: { userId }, pause: userId === undefined || row === undefined });
  const brokers = accounts.data?.user_brokers ?? [];
  useEffect(() => {
    if (row === undefined) return;
    const investment = currentInvestmentPaise(row);
    setDraft({ sizing: row.sizing === 'investment' ? 'investment' : 'quantity', quantity: row.quantity, investment: investment > 0 ? investment / 100 : '' });
    setFollow({ mode: row.mode === 'LIVE' ? 'LIVE' : 'PAPER', broker: row.user_broker_id ?? PAPER_ACCOUNT });
  }, [row]);
  const sizing = readSizing(draft);
  const valid = sizing.valid && followIssue(follow, brokers) === undefined;
  const history = row === undefined ? [] : historyOf(row);

  async function save(): Promise<void> {
    if (row === undefined || !valid) return;
    const investmentChanged = sizing.investmentPaise !== undefined && sizing.investmentPaise > 0 && sizing.investmentPaise !== currentInvestmentPaise(row);
    const saved = await update(row.subscription_id, {
      sizing: draft.sizing,
      ...(draft.sizing === 'quantity' && sizing.quantity !== undefined ? { quantity: sizing.quantity } : {}),
      ...(investmentChanged && sizing.investmentPaise !== undefined ? { investmentPaise: sizing.investmentPaise } : {}),
      follow,
    }, 'Subscription updated: the next entry uses its sizing, the publisher\'s next run its mode and account.');
    if (saved) onClose();
  }

  return (
    <Modal opened={row !== undefined} onClose={onClose} title={row?.strategy ? `Edit ${row.strategy.name}` : 'Edit subscription'}>
      <Stack gap="sm">
        <SizingFields draft={draft} onChange={setDraft} />
        <FollowModeFields draft={follow} onChange={setFollow} brokers={brokers} role={role} />
        <Text size="sm" fw={600}>Investment history</Text>
        {history.length === 0 ? (
          <Text size="sm" c="dimmed">No changes yet: {row === undefined ? '' : formatRupees(Number(row.investment_amt_paise))} from the start.</Text>
        ) : (
          <Table.ScrollContainer minWidth={240}>
            <Table data-testid="investment-history">
              <Table.Tbody>
                {history.map((entry) => (
                  <Table.Tr key={entry.date}><Table.Td>{entry.date}</Table.Td><Table.Td ta="right">{formatRupees(entry.amount_paise)}</Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void save()} loading={busy} disabled={!valid}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

// Edit a subscription's sizing. A new investment is appended to its investment history, dated
// today (the earlier entries stay; docs/PRODUCT.md section 5), and takes effect at the next entry.
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatRupees } from '@vyuha/core';
import { currentInvestmentPaise } from '../parts/investment';
import { readSizing, SizingFields, type SizingDraft } from './SizingFields';
import type { SubscriptionRow } from './subscription-model';
import { useUpdateSubscription } from './use-update-subscription';

function historyOf(row: SubscriptionRow): Array<{ date: string; amount_paise: number }> {
  const entries = Array.isArray(row.investment_history) ? row.investment_history as Array<{ date: string; amount_paise: number }> : [];
  return [...entries].sort((a, b) => (a.date < b.date ? 1 : -1));
}

export function EditSubscriptionModal({ row, onClose }: { readonly row: SubscriptionRow | undefined; readonly onClose: () => void }) {
  const [draft, setDraft] = useState<SizingDraft>({ sizing: 'quantity', quantity: 1, investment: '' });
  const { update, busy } = useUpdateSubscription();
  useEffect(() => {
    if (row === undefined) return;
    const investment = currentInvestmentPaise(row);
    setDraft({ sizing: row.sizing === 'investment' ? 'investment' : 'quantity', quantity: row.quantity, investment: investment > 0 ? investment / 100 : '' });
  }, [row]);
  const sizing = readSizing(draft);
  const history = row === undefined ? [] : historyOf(row);

  async function save(): Promise<void> {
    if (row === undefined || !sizing.valid) return;
    const investmentChanged = sizing.investmentPaise !== undefined && sizing.investmentPaise > 0 && sizing.investmentPaise !== currentInvestmentPaise(row);
    const saved = await update(row.subscription_id, {
      sizing: draft.sizing,
      ...(draft.sizing === 'quantity' && sizing.quantity !== undefined ? { quantity: sizing.quantity } : {}),
      ...(investmentChanged && sizing.investmentPaise !== undefined ? { investmentPaise: sizing.investmentPaise } : {}),
    }, 'Subscription updated: the next entry uses it.');
    if (saved) onClose();
  }

  return (
    <Modal opened={row !== undefined} onClose={onClose} title={row?.strategy ? `Edit ${row.strategy.name}` : 'Edit subscription'}>
      <Stack gap="sm">
        <SizingFields draft={draft} onChange={setDraft} />
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
          <Button onClick={() => void save()} loading={busy} disabled={!sizing.valid}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

// Subscribe to a marketplace strategy: the subscribe_strategy action with the sizing (a quantity,
// or an investment sized all-in), the mode (PAPER, or LIVE through a Zerodha account: LIVE
// disabled with the reason when the plan or the accounts do not allow it) and the broker account.
// The server checks the role, that the strategy is published (or the user's own), that the
// account is the user's and active, LIVE's rule, and every field.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { followArgs, followIssue, PAPER_ACCOUNT, type FollowDraft } from '../subscriptions/follow-mode';
import { FollowModeFields } from '../subscriptions/FollowModeFields';
import { SUBSCRIBE, type BrokerAccount } from '../subscriptions/queries';
import { readSizing, SizingFields, type SizingDraft } from '../subscriptions/SizingFields';
import { errorMessage } from './QueryState';
import { useSubject } from './use-subject';

export interface SubscribeTarget {
  readonly strategy_id: string;
  readonly name: string;
}

const FIRST_DRAFT: SizingDraft = { sizing: 'quantity', quantity: 1, investment: '' };
const FIRST_FOLLOW: FollowDraft = { mode: 'PAPER', broker: PAPER_ACCOUNT };

export function SubscribeModal({ target, brokers, onClose, onSubscribed }: {
  readonly target: SubscribeTarget | undefined;
  /** The user's broker accounts; the active ones are offered. */
  readonly brokers: readonly BrokerAccount[];
  readonly onClose: () => void;
  readonly onSubscribed: () => void;
}) {
  const [draft, setDraft] = useState<SizingDraft>(FIRST_DRAFT);
  const [follow, setFollow] = useState<FollowDraft>(FIRST_FOLLOW);
  const [state, subscribe] = useMutation<{ subscribe_strategy: { subscription_id: string } }>(SUBSCRIBE);
  const { role } = useSubject();
  const sizing = readSizing(draft);
  const valid = sizing.valid && followIssue(follow, brokers) === undefined;

  async function submit(): Promise<void> {
    if (!target || !valid) return;
    const result = await subscribe({
      strategyId: target.strategy_id, sizing: draft.sizing,
      quantity: draft.sizing === 'quantity' ? sizing.quantity : null,
      investment: draft.sizing === 'investment' ? String(sizing.investmentPaise) : null,
      ...followArgs(follow),
    });
    if (result.error) {
      showToast('error', errorMessage(result.error));
      return;
    }
    showToast('success', `Subscribed to ${target.name}.`);
    setDraft(FIRST_DRAFT);
    setFollow(FIRST_FOLLOW);
    onSubscribed();
    onClose();
  }

  return (
    <Modal opened={target !== undefined} onClose={onClose} title={target ? `Subscribe to ${target.name}` : 'Subscribe'}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">Your orders copy the publisher&apos;s entries, exits, stops and targets, sized as you choose, from its next entry on.</Text>
        <SizingFields draft={draft} onChange={setDraft} />
        <FollowModeFields draft={follow} onChange={setFollow} brokers={brokers} role={role} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={state.fetching} disabled={!valid}>Subscribe</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

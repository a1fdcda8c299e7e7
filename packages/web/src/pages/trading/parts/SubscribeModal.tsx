// Subscribe to a marketplace strategy: the subscribe_strategy action with the sizing (a quantity,
// or an investment sized all-in) and the broker account the follower trades through (paper when
// none). The server checks the role, that the strategy is published (or the user's own), that the
// account is the user's and active, and every field.
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { SUBSCRIBE, type BrokerAccount } from '../subscriptions/queries';
import { readSizing, SizingFields, type SizingDraft } from '../subscriptions/SizingFields';
import { errorMessage } from './QueryState';

export interface SubscribeTarget {
  readonly strategy_id: string;
  readonly name: string;
}

const PAPER = 'paper';
const FIRST_DRAFT: SizingDraft = { sizing: 'quantity', quantity: 1, investment: '' };

export function SubscribeModal({ target, brokers, onClose, onSubscribed }: {
  readonly target: SubscribeTarget | undefined;
  /** The user's broker accounts; the active ones are offered. */
  readonly brokers: readonly BrokerAccount[];
  readonly onClose: () => void;
  readonly onSubscribed: () => void;
}) {
  const [draft, setDraft] = useState<SizingDraft>(FIRST_DRAFT);
  const [broker, setBroker] = useState<string>(PAPER);
  const [state, subscribe] = useMutation<{ subscribe_strategy: { subscription_id: string } }>(SUBSCRIBE);
  const sizing = readSizing(draft);
  const accounts = brokers.filter((account) => account.active);

  async function submit(): Promise<void> {
    if (!target || !sizing.valid) return;
    const result = await subscribe({
      strategyId: target.strategy_id, sizing: draft.sizing,
      quantity: draft.sizing === 'quantity' ? sizing.quantity : null,
      investment: draft.sizing === 'investment' ? String(sizing.investmentPaise) : null,
      broker: broker === PAPER ? null : broker,
    });
    if (result.error) {
      showToast('error', errorMessage(result.error));
      return;
    }
    showToast('success', `Subscribed to ${target.name}.`);
    setDraft(FIRST_DRAFT);
    setBroker(PAPER);
    onSubscribed();
    onClose();
  }

  return (
    <Modal opened={target !== undefined} onClose={onClose} title={target ? `Subscribe to ${target.name}` : 'Subscribe'}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">Your orders copy the publisher&apos;s entries, exits, stops and targets, sized as you choose, from its next entry on.</Text>
        <SizingFields draft={draft} onChange={setDraft} />
        <Select
          label="Broker account"
          data={[{ value: PAPER, label: 'Paper (no broker)' }, ...accounts.map((account) => ({ value: account.user_broker_id, label: `${account.broker} · ${account.client_id}` }))]}
          value={broker}
          onChange={(value) => setBroker(value ?? PAPER)}
          allowDeselect={false}
        />
        {broker !== PAPER && (
          <Alert color="yellow" variant="light">
            Following through a broker account is not LIVE yet: the orders are placed on paper; the investment counts towards this account.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={state.fetching} disabled={!sizing.valid}>Subscribe</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

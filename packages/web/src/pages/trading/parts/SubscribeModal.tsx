// Subscribe to a marketplace strategy: insert_subscriptions_one with a quantity and the capital
// (investment_amt_paise). The server presets user_id and checks the strategy is published or own.
import { Button, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../../app/toast';
import { rupeesFieldToPaise } from '../../../format/money-input';
import { errorMessage } from './QueryState';

const SUBSCRIBE = `mutation Subscribe($object: subscriptions_insert_input!) {
  insert_subscriptions_one(object: $object) { subscription_id }
}`;

export interface SubscribeTarget {
  readonly strategy_id: string;
  readonly name: string;
}

export function SubscribeModal({ target, onClose, onSubscribed }: {
  readonly target: SubscribeTarget | undefined;
  readonly onClose: () => void;
  readonly onSubscribed: () => void;
}) {
  const [quantity, setQuantity] = useState<string | number>(1);
  const [investment, setInvestment] = useState<string | number>('');
  const [state, subscribe] = useMutation<{ insert_subscriptions_one: { subscription_id: string } | null }>(SUBSCRIBE);
  const quantityValue = typeof quantity === 'number' ? quantity : Number.parseInt(quantity, 10);
  const quantityValid = Number.isInteger(quantityValue) && quantityValue > 0;
  const investmentAmount = rupeesFieldToPaise(investment);
  const investmentPaise = investmentAmount.ok ? investmentAmount.value : undefined;

  async function submit(): Promise<void> {
    if (!target || !quantityValid || investmentPaise === undefined) return;
    const result = await subscribe({
      object: { strategy_id: target.strategy_id, quantity: quantityValue, investment_amt_paise: investmentPaise },
    });
    if (result.error) {
      showToast('error', errorMessage(result.error));
      return;
    }
    showToast('success', `Subscribed to ${target.name}.`);
    setQuantity(1);
    setInvestment('');
    onSubscribed();
    onClose();
  }

  return (
    <Modal opened={target !== undefined} onClose={onClose} title={target ? `Subscribe to ${target.name}` : 'Subscribe'}>
      <Stack gap="sm">
        <NumberInput
          label="Quantity"
          description="Lots you follow the strategy with"
          min={1}
          step={1}
          allowDecimal={false}
          value={quantity}
          onChange={setQuantity}
          error={quantityValid ? undefined : 'A whole number of at least 1'}
          required
        />
        <NumberInput
          label="Investment (₹)"
          description="Capital set aside for this subscription"
          min={0}
          decimalScale={2}
          thousandSeparator=","
          value={investment}
          onChange={setInvestment}
          error={investmentAmount.ok ? undefined : `Investment ${investmentAmount.error}`}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={() => void submit()} loading={state.fetching} disabled={!quantityValid || investmentPaise === undefined}>
            Subscribe
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

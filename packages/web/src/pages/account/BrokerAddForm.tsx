// Adds a broker account. The API secret is write-only: the GraphQL permissions hide the secret
// columns from every role; the `set_broker_secret` action encrypts it on the server
// (docs/DATA-MODEL.md, "Broker secrets"), and nothing ever reads it back to the browser.
import { Button, Checkbox, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../app/toast';
import { istToday } from '../../format/date-ranges';
import { rupeesFieldToPaise } from '../../format/money-input';
import { SETTINGS_UPDATED, graphqlErrorMessage } from './account-helpers';
import { CLIENT_ID_PATTERN, INSERT_BROKER_MUTATION, SET_BROKER_SECRET_MUTATION, type BrokerOption } from './broker-accounts';

export interface BrokerAddFormProps {
  readonly brokers: readonly BrokerOption[];
  readonly disabled: boolean;
  readonly onAdded: () => void;
  readonly onCancel: () => void;
}

export function BrokerAddForm({ brokers, disabled, onAdded, onCancel }: BrokerAddFormProps) {
  const [broker, setBroker] = useState<string | null>(null);
  const [clientId, setClientId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [investment, setInvestment] = useState<number | string>('');
  const [active, setActive] = useState(true);
  const [touched, setTouched] = useState(false);
  const [state, insert] = useMutation<{ insert_user_brokers_one: { user_broker_id: string } | null }>(INSERT_BROKER_MUTATION);
  const [secretState, setSecret] = useMutation(SET_BROKER_SECRET_MUTATION);

  const trimmedClientId = clientId.trim();
  const clientIdError = touched && !CLIENT_ID_PATTERN.test(trimmedClientId) ? '2 to 32 letters, digits, _ or -' : undefined;
  const investmentAmount = rupeesFieldToPaise(investment);
  const investmentPaise = investmentAmount.ok ? investmentAmount.value : undefined;
  const investmentError = touched && !investmentAmount.ok ? `Investment ${investmentAmount.error}` : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!broker || !CLIENT_ID_PATTERN.test(trimmedClientId) || investmentPaise === undefined) return;
    const key = apiKey.trim();
    const object = {
      broker,
      client_id: trimmedClientId,
      active,
      api_key: key === '' ? null : key,
      investment_amt_paise: investmentPaise,
      investment_history: investmentPaise > 0 ? [{ date: istToday(), amount_paise: investmentPaise }] : [],
    };
    const result = await insert({ object });
    if (result.error) {
      showToast('error', graphqlErrorMessage(result.error));
      return;
    }
    const id = result.data?.insert_user_brokers_one?.user_broker_id;
    const secret = apiSecret.trim();
    if (id !== undefined && secret !== '') {
      const stored = await setSecret({ id, secret });
      setApiSecret('');
      if (stored.error) {
        // The account exists; only the secret is missing: say so and keep the account.
        showToast('error', `The account was added, but its API secret was not stored: ${graphqlErrorMessage(stored.error)}`);
        onAdded();
        return;
      }
    }
    showToast('success', SETTINGS_UPDATED);
    onAdded();
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Broker"
            placeholder="Pick a broker"
            data={brokers.map((option) => ({ value: option.broker, label: option.name }))}
            value={broker}
            onChange={setBroker}
            error={touched && !broker ? 'Pick a broker' : undefined}
            searchable
            required
          />
          <TextInput
            label="Client id"
            value={clientId}
            onChange={(event) => setClientId(event.currentTarget.value)}
            error={clientIdError}
            required
          />
          <TextInput
            label="API key"
            description="The broker app's key (public: it appears in the broker's login address)"
            value={apiKey}
            onChange={(event) => setApiKey(event.currentTarget.value)}
          />
          <PasswordInput
            label="API secret"
            description="Write-only: stored encrypted by the server and never shown again"
            value={apiSecret}
            onChange={(event) => setApiSecret(event.currentTarget.value)}
            autoComplete="off"
            maxLength={256}
          />
          <NumberInput
            label="Investment (₹)"
            min={0}
            decimalScale={2}
            thousandSeparator=","
            thousandsGroupStyle="lakh"
            allowNegative={false}
            value={investment}
            onChange={setInvestment}
            error={investmentError}
          />
          <Checkbox label="Active" checked={active} onChange={(event) => setActive(event.currentTarget.checked)} mt="xl" />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={state.fetching || secretState.fetching} disabled={disabled}>Add broker account</Button>
          <Button variant="default" onClick={onCancel}>Cancel</Button>
        </Group>
      </Stack>
    </form>
  );
}

// Adds a broker account. The API secret is write-only: the GraphQL permissions hide the secret
// columns from every role and leave them to a server action that encrypts (docs/DATA-MODEL.md,
// "Broker secrets"). That action does not exist yet, so the field is shown but cannot be filled.
import { Button, Checkbox, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { showToast } from '../../app/toast';
import { SETTINGS_UPDATED, graphqlErrorMessage, todayInIndia } from './account-helpers';
import { CLIENT_ID_PATTERN, INSERT_BROKER_MUTATION, rupeesToPaise, type BrokerOption } from './broker-accounts';

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
  const [investment, setInvestment] = useState<number | string>('');
  const [active, setActive] = useState(true);
  const [touched, setTouched] = useState(false);
  const [state, insert] = useMutation(INSERT_BROKER_MUTATION);

  const trimmedClientId = clientId.trim();
  const clientIdError = touched && !CLIENT_ID_PATTERN.test(trimmedClientId) ? '2 to 32 letters, digits, _ or -' : undefined;
  const investmentPaise = investment === '' ? 0 : rupeesToPaise(investment);
  const investmentError = touched && investmentPaise === undefined ? 'Enter an amount in rupees, 0 or more' : undefined;

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
      investment_history: investmentPaise > 0 ? [{ date: todayInIndia(), amount_paise: investmentPaise }] : [],
    };
    const result = await insert({ object });
    if (result.error) {
      showToast('error', graphqlErrorMessage(result.error));
      return;
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
            description="Write-only and stored encrypted by the server; entering it here is not available yet"
            value=""
            disabled
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
          <Button type="submit" loading={state.fetching} disabled={disabled}>Add broker account</Button>
          <Button variant="default" onClick={onCancel}>Cancel</Button>
        </Group>
      </Stack>
    </form>
  );
}

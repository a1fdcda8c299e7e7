// Security keys (WebAuthn, METHODS.md): add a key to the signed-in account. The keys already
// registered are kept in auth.user_security_keys, which neither GraphQL nor the auth API lists,
// so only the keys added on this visit are shown. A session signed in more than 5 minutes ago is
// asked for the current password first (the auth service's fresh proof; use-enrolment-proof.ts).
import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api';
import { createCredential } from '../../auth/webauthn';
import { showToast } from '../../app/toast';
import { type RequestState, withAccessToken, withElevation } from './account-helpers';
import { ProofPasswordField } from './ProofPasswordField';
import { useEnrolmentProof } from './use-enrolment-proof';

interface AddedKey {
  readonly id: string;
  readonly nickname: string;
}

export function SecurityKeysSection() {
  const [nickname, setNickname] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const [added, setAdded] = useState<readonly AddedKey[]>([]);
  const [disabledEndpoint, setDisabledEndpoint] = useState(false);
  const proof = useEnrolmentProof();

  const fail = (error: { error: string; message: string }) => {
    setState('error');
    if (error.error === 'disabled-endpoint') setDisabledEndpoint(true);
    showToast('error', error.error === 'disabled-endpoint' ? 'Security keys are not enabled on this server' : error.message);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const proofFields = proof.body();
    if (!proofFields) {
      setState('error');
      return;
    }
    setState('requesting');
    const options = await withElevation((token) => authApi.addSecurityKey(token, proofFields));
    if (!options.ok && proof.refused(options.error)) {
      setState('error');
      return;
    }
    if (!options.ok) return fail(options.error);
    const credential = await createCredential(options.value);
    if (!credential.ok) return fail(credential.error);
    const name = nickname.trim();
    const verified = await withAccessToken((token) => authApi.verifySecurityKey({ credential: credential.value, ...(name ? { nickname: name } : {}) }, token));
    if (!verified.ok) return fail(verified.error);
    setState('success');
    proof.reset();
    setNickname('');
    setAdded((keys) => [...keys, { id: verified.value.id, nickname: verified.value.nickname || name || 'Security key' }]);
    showToast('success', 'Security key added');
  };

  return (
    <Paper withBorder p="md">
      <Title order={3} mb="sm">Security keys</Title>
      <Stack gap="sm" maw={560}>
        <Text size="sm">
          A security key (a USB or NFC key, or your device's fingerprint or face unlock) lets you sign in without a password
          and confirms sensitive changes.
        </Text>
        {disabledEndpoint && <Alert color="yellow">Security keys are not enabled on this server (AUTH_WEBAUTHN_ENABLED).</Alert>}
        <form onSubmit={(event) => void submit(event)}>
          <Stack gap="xs">
            <Group align="flex-end">
              <TextInput
                label="Nickname"
                placeholder="e.g. YubiKey on my keyring"
                value={nickname}
                maxLength={64}
                onChange={(event) => setNickname(event.currentTarget.value)}
              />
              <Button type="submit" loading={state === 'requesting'} data-testid="security-key-add">Add security key</Button>
            </Group>
            <ProofPasswordField proof={proof} testId="security-key-current-password" disabled={state === 'requesting'} />
          </Stack>
        </form>
        {added.length > 0 && (
          <div>
            <Text size="sm" fw={500}>Added on this visit</Text>
            <List size="sm">
              {added.map((key) => <List.Item key={key.id}>{key.nickname}</List.Item>)}
            </List>
          </div>
        )}
        <Text size="xs" c="dimmed">Keys registered earlier are not listed here yet.</Text>
      </Stack>
    </Paper>
  );
}

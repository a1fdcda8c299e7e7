// Two-factor sign-in with an authenticator app (TOTP, METHODS.md): generate a secret, scan its QR
// code, confirm with a code to activate; a current code also turns it off. Activating from a
// session signed in more than 5 minutes ago also needs the current password (the auth service's
// fresh proof; use-enrolment-proof.ts): the field appears when the server asks for it.
import { Badge, Button, CopyButton, Group, Image, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import QRCode from 'qrcode';
import { useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api';
import type { AuthUser } from '../../auth/auth-types';
import { showToast } from '../../app/toast';
import { type RequestState, withElevation } from './account-helpers';
import { ProofPasswordField } from './ProofPasswordField';
import { type EnrolmentProof, useEnrolmentProof } from './use-enrolment-proof';

const CODE = /^\d{6}$/;

interface PendingSecret {
  readonly qrDataUrl: string;
  readonly secret: string;
}

/**
 * The server answers `imageUrl` as a `data:image/png` QR code of the otpauth URL. Should it ever
 * send something else (a remote URL would leak nothing, but may not load), draw the code here.
 */
async function qrImage(input: { imageUrl: string; secret: string; account: string }): Promise<string> {
  if (input.imageUrl.startsWith('data:image/')) return input.imageUrl;
  const label = encodeURIComponent(`Vyuha:${input.account}`);
  const query = new URLSearchParams({ secret: input.secret, issuer: 'Vyuha' });
  return QRCode.toDataURL(`otpauth://totp/${label}?${query.toString()}`);
}

function CodeField({ value, onChange, disabled }: { readonly value: string; readonly onChange: (code: string) => void; readonly disabled: boolean }) {
  return (
    <TextInput
      label="6-digit code from the app"
      inputMode="numeric"
      autoComplete="one-time-code"
      data-testid="totp-code"
      maxLength={6}
      w={220}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
      disabled={disabled}
    />
  );
}

interface TotpActivationFormProps {
  readonly pending: PendingSecret;
  readonly code: string;
  readonly onCode: (code: string) => void;
  readonly proof: EnrolmentProof;
  readonly requesting: boolean;
  readonly onSubmit: (event: FormEvent) => void;
  readonly onCancel: () => void;
}

/** The QR code and secret of a pending TOTP secret, the code that activates it and, when asked for, the current password. */
function TotpActivationForm({ pending, code, onCode, proof, requesting, onSubmit, onCancel }: TotpActivationFormProps) {
  return (
    <form onSubmit={onSubmit}>
      <Stack gap="sm">
        <Text size="sm">Scan this code with an authenticator app (Google Authenticator, Authy, 1Password...), then enter the code it shows.</Text>
        <Image src={pending.qrDataUrl} alt="QR code for the authenticator app" w={200} h={200} fit="contain" />
        <Group gap="xs">
          <Text size="sm" c="dimmed">Or type this secret:</Text>
          <Text size="sm" ff="monospace" data-testid="totp-secret">{pending.secret}</Text>
          <CopyButton value={pending.secret}>
            {({ copied, copy }) => <Button size="compact-xs" variant="subtle" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
          </CopyButton>
        </Group>
        <CodeField value={code} onChange={onCode} disabled={requesting} />
        <ProofPasswordField proof={proof} testId="totp-current-password" disabled={requesting} />
        <Group>
          <Button type="submit" loading={requesting} disabled={code.length !== 6} data-testid="totp-activate">Activate</Button>
          <Button variant="default" onClick={onCancel} disabled={requesting}>Cancel</Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface MfaSectionProps {
  readonly authUser: AuthUser | undefined;
  readonly loading: boolean;
  readonly onChanged: () => void;
}

export function MfaSection({ authUser, loading, onChanged }: MfaSectionProps) {
  const [pending, setPending] = useState<PendingSecret | undefined>(undefined);
  const [code, setCode] = useState('');
  const [state, setState] = useState<RequestState>('idle');
  const active = authUser?.activeMfaType === 'totp';
  const proof = useEnrolmentProof();

  const generate = async () => {
    setState('requesting');
    const result = await withElevation((token) => authApi.generateTotp(token));
    if (!result.ok) {
      setState('error');
      showToast('error', result.error.message);
      return;
    }
    try {
      const qrDataUrl = await qrImage({ imageUrl: result.value.imageUrl, secret: result.value.totpSecret, account: authUser?.email ?? 'account' });
      setPending({ qrDataUrl, secret: result.value.totpSecret });
      setCode('');
      setState('idle');
    } catch (error) {
      setState('error');
      showToast('error', `The QR code could not be drawn: ${(error as Error).message}`);
    }
  };

  const submit = async (event: FormEvent, activeMfaType: 'totp' | '') => {
    event.preventDefault();
    if (!CODE.test(code)) {
      showToast('error', 'Enter the 6-digit code your authenticator app shows');
      return;
    }
    // Only switching on enrols a factor; turning it off needs the code alone.
    const proofFields = activeMfaType === 'totp' ? proof.body() : {};
    if (!proofFields) {
      setState('error');
      return;
    }
    setState('requesting');
    const result = await withElevation((token) => authApi.setMfa({ code, activeMfaType, ...proofFields }, token));
    if (!result.ok) {
      setState('error');
      if (!proof.refused(result.error)) showToast('error', result.error.message);
      return;
    }
    setState('success');
    proof.reset();
    setPending(undefined);
    setCode('');
    showToast('success', activeMfaType === 'totp' ? 'Two-factor sign-in is on' : 'Two-factor sign-in is off');
    onChanged();
  };

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={3}>Two-factor sign-in</Title>
        {loading && !authUser ? <Loader size="xs" aria-label="Loading" /> : (
          <Badge color={active ? 'teal' : 'gray'}>{active ? 'On (authenticator app)' : 'Off'}</Badge>
        )}
      </Group>
      {active ? (
        <form onSubmit={(event) => void submit(event, '')}>
          <Stack gap="sm">
            <Text size="sm">Sign-in asks for a code from your authenticator app. To turn this off, enter a current code.</Text>
            <CodeField value={code} onChange={setCode} disabled={state === 'requesting'} />
            <Group>
              <Button type="submit" color="red" variant="light" loading={state === 'requesting'} disabled={code.length !== 6}>
                Turn off two-factor sign-in
              </Button>
            </Group>
          </Stack>
        </form>
      ) : pending ? (
        <TotpActivationForm
          pending={pending} code={code} onCode={setCode} proof={proof} requesting={state === 'requesting'}
          onSubmit={(event) => void submit(event, 'totp')}
          onCancel={() => {
            proof.reset();
            setPending(undefined);
          }}
        />
      ) : (
        <Stack gap="sm">
          <Text size="sm">Add a second step to sign-in: a code from an authenticator app on your phone.</Text>
          <Group>
            <Button onClick={() => void generate()} loading={state === 'requesting'} disabled={!authUser} data-testid="totp-setup">Set up authenticator app</Button>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}

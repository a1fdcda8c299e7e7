// /authenticate/signin: password, magic link, SMS code, security key and guest (docs/PRODUCT.md sections 4
// and 7), each only when the auth service has it switched on (sign-in-methods.ts). The auth
// machine does the work; this page sends it SIGNIN and follows its state: needsMfa asks for the
// TOTP code, needsSmsOtp for the texted code, success says the link went out, signedIn returns to
// the page the user came from (location.state.from) or the dashboard.
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput, PasswordInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { authApi } from '../../auth/auth-api';
import { CLIENT_AUTH_ERRORS, isValidEmail, isValidPassword, isValidPhoneNumber, needsEmailVerification } from '../../auth/auth-errors';
import { authActor, authIn, useAuthState } from '../../auth/auth-service';
import type { AuthErrorPayload } from '../../auth/auth-types';
import type { SignInRequest } from '../../auth/sign-in';
import { showToast } from '../../app/toast';
import { OutboxNote } from './OutboxNote';
import { SecurityKeyElsewhere } from './SecurityKeyElsewhere';
import { securityKeyUse, signInMethods, useEnabledMethods, type SignInMethod } from './sign-in-methods';

type Method = SignInMethod;

const METHODS: ReadonlyArray<{ readonly value: Method; readonly label: string }> = [
  { value: 'password', label: 'Password' },
  { value: 'magic-link', label: 'Magic link' },
  { value: 'sms', label: 'SMS code' },
  { value: 'security-key', label: 'Security key' },
];

const emailRule = (value: string) => (isValidEmail(value.trim()) ? null : CLIENT_AUTH_ERRORS['invalid-email'].message);
const passwordRule = (value: string) => (isValidPassword(value) ? null : CLIENT_AUTH_ERRORS['invalid-password'].message);
const phoneRule = (value: string) => (isValidPhoneNumber(value) ? null : CLIENT_AUTH_ERRORS['invalid-phone-number'].message);
const codeRule = (value: string) => (/^\d{6}$/.test(value.trim()) ? null : 'Enter the 6-digit code');

/** Where the links in e-mails bring the browser back to (magic link, e-mail verification). */
const redirectUrl = () => `${window.location.origin}/authenticate/redirect`;

/** The page to return to: a same-site path from the auth check, never another auth page. */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  const usable = typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/authenticate');
  return usable ? from : '/dashboard';
}

const signIn = (request: SignInRequest) => authActor.send({ type: 'SIGNIN', request });

/** Back to the empty form: the machine leaves failed, success, needsMfa or needsSmsOtp. */
function clearMachine(): void {
  const snapshot = authActor.getSnapshot();
  if (authIn(snapshot, 'signedOut') && !authIn(snapshot, 'signedOut.authenticating')) authActor.send({ type: 'CLEAR_ERROR' });
}

interface FormProps {
  readonly busy: boolean;
  /** The address the user typed, for the resend-verification button. */
  readonly onEmail: (email: string) => void;
}

function PasswordForm({ busy, onEmail }: FormProps) {
  const form = useForm({ initialValues: { email: '', password: '' }, validate: { email: emailRule, password: passwordRule } });
  const submit = form.onSubmit(({ email, password }) => {
    onEmail(email.trim());
    signIn({ method: 'password', email: email.trim(), password });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Email" type="email" autoComplete="email" required data-testid="signin-email" {...form.getInputProps('email')} />
        <PasswordInput label="Password" autoComplete="current-password" required data-testid="signin-password" {...form.getInputProps('password')} />
        <Button type="submit" loading={busy} fullWidth data-testid="signin-submit">Sign in</Button>
      </Stack>
    </form>
  );
}

function MagicLinkForm({ busy, onEmail, sentTo, outbox }: FormProps & { readonly sentTo: string | undefined; readonly outbox: boolean }) {
  const form = useForm({ initialValues: { email: '' }, validate: { email: emailRule } });
  if (sentTo !== undefined) {
    return (
      <Stack gap="sm">
        <Alert color="teal" title="Check your e-mail" data-testid="magic-link-sent">
          We sent a sign-in link to {sentTo || 'your address'}. Open it in this browser to sign in.
          {outbox && <OutboxNote what="link" to={sentTo} />}
        </Alert>
        <Button variant="default" onClick={clearMachine}>Use another address</Button>
      </Stack>
    );
  }
  const submit = form.onSubmit(({ email }) => {
    onEmail(email.trim());
    signIn({ method: 'passwordless-email', email: email.trim(), redirectTo: redirectUrl() });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Email" type="email" autoComplete="email" required data-testid="magic-link-email" {...form.getInputProps('email')} />
        <Button type="submit" loading={busy} fullWidth data-testid="magic-link-submit">Send me a sign-in link</Button>
      </Stack>
    </form>
  );
}

function SmsForm({ busy, codeSentTo, onChangeNumber, outbox }: { readonly busy: boolean; readonly codeSentTo: string | undefined; readonly onChangeNumber: () => void; readonly outbox: boolean }) {
  const phoneForm = useForm({ initialValues: { phoneNumber: '' }, validate: { phoneNumber: phoneRule } });
  const codeForm = useForm({ initialValues: { code: '' }, validate: { code: codeRule } });
  if (codeSentTo === undefined) {
    const submit = phoneForm.onSubmit(({ phoneNumber }) => signIn({ method: 'passwordless-sms', phoneNumber: phoneNumber.trim() }));
    return (
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Mobile number" type="tel" autoComplete="tel" placeholder="+91 98765 43210" required data-testid="sms-phone" {...phoneForm.getInputProps('phoneNumber')} />
          <Button type="submit" loading={busy} fullWidth data-testid="sms-submit">Text me a code</Button>
        </Stack>
      </form>
    );
  }
  const submit = codeForm.onSubmit(({ code }) => signIn({ method: 'passwordless-sms-otp', phoneNumber: codeSentTo, otp: code.trim() }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">We texted a 6-digit code to {codeSentTo}.</Text>
        {outbox && <OutboxNote what="code" to={codeSentTo} />}
        <TextInput label="Code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required data-testid="sms-code" {...codeForm.getInputProps('code')} />
        <Button type="submit" loading={busy} fullWidth data-testid="sms-code-submit">Sign in</Button>
        <Anchor component="button" type="button" size="sm" onClick={onChangeNumber}>Use another number</Anchor>
      </Stack>
    </form>
  );
}

function SecurityKeyForm({ busy, onEmail }: FormProps) {
  const form = useForm({ initialValues: { email: '' }, validate: { email: emailRule } });
  const submit = form.onSubmit(({ email }) => {
    onEmail(email.trim());
    signIn({ method: 'security-key', email: email.trim(), securityKey: true });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Email" type="email" autoComplete="email webauthn" required data-testid="security-key-email" {...form.getInputProps('email')} />
        <Button type="submit" loading={busy} fullWidth data-testid="security-key-submit">Sign in with a security key</Button>
      </Stack>
    </form>
  );
}

/** The TOTP step after a password (or SMS) sign-in answered an MFA ticket; the machine holds the ticket. */
function MfaStep({ busy, onBack }: { readonly busy: boolean; readonly onBack: () => void }) {
  const form = useForm({ initialValues: { code: '' }, validate: { code: codeRule } });
  const submit = form.onSubmit(({ code }) => signIn({ method: 'mfa-totp', ticket: undefined, otp: code.trim() }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Enter the 6-digit code from your authenticator app.</Text>
        <TextInput label="Authentication code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required autoFocus data-testid="mfa-code" {...form.getInputProps('code')} />
        <Button type="submit" loading={busy} fullWidth data-testid="mfa-submit">Verify</Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>Back to sign in</Anchor>
      </Stack>
    </form>
  );
}

/** The machine's error; an unverified e-mail offers to send the verification mail again. */
function ErrorNotice({ error, email }: { readonly error: AuthErrorPayload; readonly email: string }) {
  const [sending, setSending] = useState(false);
  if (!needsEmailVerification(error)) {
    return <Alert color="red" data-testid="signin-error">{error.message}</Alert>;
  }
  const resend = async () => {
    setSending(true);
    const sent = await authApi.sendVerificationEmail({ email, options: { redirectTo: redirectUrl() } });
    setSending(false);
    if (sent.ok) showToast('success', `Verification e-mail sent to ${email}`);
    else showToast('error', sent.error.message);
  };
  return (
    <Alert color="yellow" title={CLIENT_AUTH_ERRORS['unverified-user'].message} data-testid="signin-unverified">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Open the link we e-mailed you to verify your address, then sign in.</Text>
        {isValidEmail(email) && (
          <Button size="xs" variant="light" loading={sending} onClick={() => void resend()} data-testid="resend-verification">
            Resend verification e-mail
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function Component() {
  const navigate = useNavigate();
  const location = useLocation();
  const view = useAuthState((snapshot) => ({
    signedIn: authIn(snapshot, 'signedIn'),
    busy: authIn(snapshot, 'signedOut.authenticating'),
    needsMfa: authIn(snapshot, 'signedOut.needsMfa'),
    needsSmsOtp: authIn(snapshot, 'signedOut.needsSmsOtp'),
    linkSent: authIn(snapshot, 'signedOut.success'),
    failed: authIn(snapshot, 'signedOut.failed'),
    error: snapshot.context.error,
    smsPhoneNumber: snapshot.context.smsPhoneNumber,
  }));
  const methods = useEnabledMethods();
  const available = signInMethods(methods, window.location.origin);
  const keys = securityKeyUse(methods.securityKeys, window.location.origin);
  const [chosen, setMethod] = useState<Method>(view.linkSent ? 'magic-link' : view.needsSmsOtp ? 'sms' : 'password');
  // A method the server has off is never shown, even while its answer is on its way.
  const method: Method = available.includes(chosen) ? chosen : 'password';
  const [email, setEmail] = useState('');
  // The code steps stay on screen after a wrong code (the machine is then in failed) until the user goes back.
  const [mfaStep, setMfaStep] = useState(view.needsMfa);
  const [codeSentTo, setCodeSentTo] = useState<string | undefined>(view.needsSmsOtp ? view.smsPhoneNumber : undefined);
  const from = returnPath(location.state);

  useEffect(() => {
    if (view.signedIn) void navigate(from, { replace: true });
  }, [view.signedIn, from, navigate]);
  useEffect(() => {
    if (view.needsMfa) setMfaStep(true);
  }, [view.needsMfa]);
  useEffect(() => {
    if (view.needsSmsOtp && view.smsPhoneNumber !== undefined) {
      setCodeSentTo(view.smsPhoneNumber);
      setMethod('sms');
    }
  }, [view.needsSmsOtp, view.smsPhoneNumber]);

  const chooseMethod = (value: string) => {
    setMethod(value as Method);
    clearMachine();
  };
  const leaveMfa = () => {
    setMfaStep(false);
    clearMachine();
  };
  const changeNumber = () => {
    setCodeSentTo(undefined);
    clearMachine();
  };

  return (
    <Stack gap="md">
      <Title order={2} ta="center">{mfaStep ? 'Two-factor authentication' : 'Sign in'}</Title>
      {mfaStep ? (
        <MfaStep busy={view.busy} onBack={leaveMfa} />
      ) : (
        <>
          {available.length > 1 && (
            <SegmentedControl fullWidth size="xs" data={METHODS.filter((entry) => available.includes(entry.value))} value={method} onChange={chooseMethod} aria-label="Sign-in method" />
          )}
          {method === 'password' && <PasswordForm busy={view.busy} onEmail={setEmail} />}
          {method === 'magic-link' && <MagicLinkForm busy={view.busy} onEmail={setEmail} sentTo={view.linkSent ? email : undefined} outbox={methods.delivery.email === 'outbox'} />}
          {method === 'sms' && <SmsForm busy={view.busy} codeSentTo={codeSentTo} onChangeNumber={changeNumber} outbox={methods.delivery.sms === 'outbox'} />}
          {method === 'security-key' && <SecurityKeyForm busy={view.busy} onEmail={setEmail} />}
          {keys.kind === 'elsewhere' && <SecurityKeyElsewhere at={keys.at} />}
          {methods.anonymous && (
            <Button variant="subtle" size="xs" onClick={() => signIn({ method: 'anonymous' })} disabled={view.busy} data-testid="signin-anonymous">
              Continue as a guest
            </Button>
          )}
        </>
      )}
      {view.failed && view.error && <ErrorNotice error={view.error} email={email} />}
      {!mfaStep && (
        <Group justify="space-between">
          <Anchor component={Link} to="/authenticate/forgot-password" size="sm" data-testid="forgot-password-link">Forgot password?</Anchor>
          <Anchor component={Link} to="/authenticate/signup" size="sm" data-testid="signup-link">Create an account</Anchor>
        </Group>
      )}
    </Stack>
  );
}

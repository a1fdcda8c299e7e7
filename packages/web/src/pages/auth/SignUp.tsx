// /authenticate/signup: e-mail + password, or a security key where the server has keys on and the
// browser can use them here (sign-in-methods.ts), through the registration machine (docs/PRODUCT.md section 4). A session from the server is exchanged for one the auth machine owns and the
// user goes to the dashboard; `session: null` means the e-mail waits for verification
// (/authenticate/signup-success). A signed-in anonymous user is converted, keeping its id.
import { Alert, Anchor, Button, Group, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../../app/sign-out';
import type { SignUpOptions } from '../../auth/auth-api';
import { CLIENT_AUTH_ERRORS, isValidEmail, isValidPassword, MIN_PASSWORD_LENGTH } from '../../auth/auth-errors';
import { authIn, currentAccessToken, useAuthState } from '../../auth/auth-service';
import type { AuthErrorPayload } from '../../auth/auth-types';
import { readClaims } from '../../auth/claims';
import { registrationMachine, type RegistrationRequest } from '../../auth/registration-machine';
import { exchangeRefreshToken } from './AuthRedirect';
import { SecurityKeyElsewhere } from './SecurityKeyElsewhere';
import { securityKeyUse, useEnabledMethods } from './sign-in-methods';

type Mode = 'password' | 'security-key';

/** docs/AUTH-CONTRACT.md's SignUpOptions.displayName: at most 32 letters, digits, symbols, spaces and , . ' - */
const DISPLAY_NAME = /^[\p{L}\p{N}\p{S} ,.'-]+$/u;
const DISPLAY_NAME_MAX = 32;

const emailRule = (value: string) => (isValidEmail(value.trim()) ? null : CLIENT_AUTH_ERRORS['invalid-email'].message);
const passwordRule = (value: string) => (isValidPassword(value) ? null : CLIENT_AUTH_ERRORS['invalid-password'].message);
function displayNameRule(value: string): string | null {
  const name = value.trim();
  if (name === '') return null;
  return name.length <= DISPLAY_NAME_MAX && DISPLAY_NAME.test(name) ? null : `Use at most ${DISPLAY_NAME_MAX} letters, digits, spaces and , . ' -`;
}

/** Where the verification link brings the browser back to (it signs the user in there). */
const redirectUrl = () => `${window.location.origin}/authenticate/redirect`;

function signUpOptions(displayName: string): SignUpOptions {
  const name = displayName.trim();
  return { redirectTo: redirectUrl(), ...(name ? { displayName: name } : {}) };
}

interface FormProps {
  readonly busy: boolean;
  readonly onSubmit: (request: RegistrationRequest) => void;
}

function PasswordSignUpForm({ busy, onSubmit }: FormProps) {
  const form = useForm({
    initialValues: { displayName: '', email: '', password: '', confirmPassword: '' },
    validate: {
      displayName: displayNameRule,
      email: emailRule,
      password: passwordRule,
      confirmPassword: (value, values) => (value === values.password ? null : 'Passwords do not match'),
    },
  });
  const submit = form.onSubmit((values) => onSubmit({ method: 'email-password', email: values.email.trim(), password: values.password, options: signUpOptions(values.displayName) }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Display name" autoComplete="name" maxLength={DISPLAY_NAME_MAX} data-testid="signup-display-name" {...form.getInputProps('displayName')} />
        <TextInput label="Email" type="email" autoComplete="email" required data-testid="signup-email" {...form.getInputProps('email')} />
        <PasswordInput label="Password" description={`At least ${MIN_PASSWORD_LENGTH} characters`} autoComplete="new-password" required data-testid="signup-password" {...form.getInputProps('password')} />
        <PasswordInput label="Confirm password" autoComplete="new-password" required data-testid="signup-confirm-password" {...form.getInputProps('confirmPassword')} />
        <Button type="submit" loading={busy} fullWidth data-testid="signup-submit">Create account</Button>
      </Stack>
    </form>
  );
}

function SecurityKeySignUpForm({ busy, onSubmit }: FormProps) {
  const form = useForm({
    initialValues: { displayName: '', email: '', nickname: '' },
    validate: { displayName: displayNameRule, email: emailRule },
  });
  const submit = form.onSubmit((values) => {
    const nickname = values.nickname.trim();
    onSubmit({ method: 'security-key', email: values.email.trim(), options: signUpOptions(values.displayName), ...(nickname ? { nickname } : {}) });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Display name" autoComplete="name" maxLength={DISPLAY_NAME_MAX} {...form.getInputProps('displayName')} />
        <TextInput label="Email" type="email" autoComplete="email" required data-testid="signup-key-email" {...form.getInputProps('email')} />
        <TextInput label="Key nickname" placeholder="e.g. YubiKey on my keyring" maxLength={64} {...form.getInputProps('nickname')} />
        <Button type="submit" loading={busy} fullWidth data-testid="signup-key-submit">Create account with a security key</Button>
      </Stack>
    </form>
  );
}

/** A failed registration, or (`created`) an account that exists but whose session could not be taken over. */
function ErrorNotice({ error, created }: { readonly error: AuthErrorPayload; readonly created: boolean }) {
  return (
    <Alert color="red" data-testid="signup-error">
      <Stack gap={4}>
        <Text size="sm">{created ? `Your account was created, but signing in failed: ${error.message}` : error.message}</Text>
        {(created || error.error === 'email-already-in-use') && (
          <Anchor component={Link} to="/authenticate/signin" size="sm">{created ? 'Sign in' : 'Sign in to that account instead'}</Anchor>
        )}
      </Stack>
    </Alert>
  );
}

export function Component() {
  const navigate = useNavigate();
  const [snapshot, send] = useMachine(registrationMachine);
  // docs/PRODUCT.md section 4: an anonymous user who signs up is converted, not created.
  const anonymous = useAuthState((auth) => {
    const session = auth.context.session;
    if (!authIn(auth, 'signedIn') || !session) return false;
    return session.user?.isAnonymous === true || readClaims(session.accessToken)?.isAnonymous === true;
  });
  const [chosenMode, setMode] = useState<Mode>('password');
  const keys = securityKeyUse(useEnabledMethods().securityKeys, window.location.origin);
  const mode: Mode = keys.kind === 'here' ? chosenMode : 'password';
  const [adoptError, setAdoptError] = useState<AuthErrorPayload | undefined>(undefined);

  const complete = snapshot.status === 'done';
  const newSession = snapshot.output?.session;
  const waitsForEmail = snapshot.matches({ incomplete: 'needsEmailVerification' });
  const { converted, email } = snapshot.context;

  // A session from the server: exchange its refresh token so the auth machine owns the session.
  useEffect(() => {
    if (!complete || !newSession) return;
    let current = true;
    void exchangeRefreshToken(newSession.refreshToken).then((result) => {
      if (!current) return;
      if (result.ok) void navigate('/dashboard', { replace: true });
      else setAdoptError(result.error);
    });
    return () => {
      current = false;
    };
  }, [complete, newSession, navigate]);

  // No session yet: the e-mail must be verified first. A converted anonymous user's sessions
  // have ended at the server, so this tab signs out as well.
  useEffect(() => {
    if (!waitsForEmail) return;
    const leave = () => void navigate('/authenticate/signup-success', { replace: true, state: { email } });
    if (converted) void signOut().then(leave);
    else leave();
  }, [waitsForEmail, converted, email, navigate]);

  const busy = snapshot.matches({ incomplete: 'registering' }) || complete;
  const register = (request: RegistrationRequest) => {
    setAdoptError(undefined);
    const anonymousAccessToken = anonymous ? currentAccessToken() : undefined;
    send({ type: 'REGISTER', request, ...(anonymousAccessToken ? { anonymousAccessToken } : {}) });
  };
  const error = adoptError ?? (snapshot.matches({ incomplete: 'failed' }) ? snapshot.context.error : undefined);

  return (
    <Stack gap="md">
      <Title order={2} ta="center">Create your account</Title>
      {anonymous && (
        <Text size="sm" c="dimmed">You are using a guest session: creating an account keeps everything you have saved.</Text>
      )}
      {keys.kind === 'here' && (
        <SegmentedControl
          fullWidth
          size="xs"
          value={mode}
          onChange={(value) => {
            setMode(value as Mode);
            send({ type: 'RESET' });
          }}
          aria-label="Sign-up method"
          data={[
            { value: 'password', label: 'Email and password' },
            // A guest session can only be converted with a password or passwordless (docs/PRODUCT.md section 5).
            { value: 'security-key', label: 'Security key', disabled: anonymous },
          ]}
        />
      )}
      {mode === 'password'
        ? <PasswordSignUpForm busy={busy} onSubmit={register} />
        : <SecurityKeySignUpForm busy={busy} onSubmit={register} />}
      {keys.kind === 'elsewhere' && <SecurityKeyElsewhere at={keys.at} />}
      {error && <ErrorNotice error={error} created={adoptError !== undefined} />}
      <Group justify="center" gap={4}>
        <Text size="sm">Already have an account?</Text>
        <Anchor component={Link} to="/authenticate/signin" size="sm" data-testid="signin-link">Sign in</Anchor>
      </Group>
    </Stack>
  );
}

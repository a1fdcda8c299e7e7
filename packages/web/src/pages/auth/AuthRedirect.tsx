// /authenticate/redirect: where OAuth providers, magic links and e-mail verification links come
// back (through /v1/auth/verify or the provider callback). `?refreshToken=` is exchanged for a
// session the auth machine owns; `?error=&errorDescription=` is shown (docs/PRODUCT.md section 8), except
// 'social user already exists', which is not an error for the user.
import { Alert, Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { waitFor } from 'xstate';
import { authApi } from '../../auth/auth-api';
import { authActor, authIn, waitUntilReady } from '../../auth/auth-service';
import type { AuthErrorPayload } from '../../auth/auth-types';

export type ExchangeResult = { readonly ok: true } | { readonly ok: false; readonly error: AuthErrorPayload };

/** How long the exchange may take before the page gives up (the auth service answers in well under a second). */
const EXCHANGE_TIMEOUT_MS = 30_000;
const IGNORED_RETURN_ERROR = 'social user already exists';

// A refresh token works once, and a second presentation revokes its whole family: remember each
// exchange so a re-run effect (React's strict mode, a re-render) waits for the first one.
const exchanges = new Map<string, Promise<ExchangeResult>>();

async function exchange(refreshToken: string): Promise<ExchangeResult> {
  const ready = await waitUntilReady();
  if (authIn(ready, 'signedIn')) {
    // The machine refuses SIGNIN while signed in: exchange here and hand the session over. A link
    // for another user replaces the current one, whose refresh token is then revoked.
    const previous = ready.context.session;
    const previousUserId = ready.context.userId;
    const refreshed = await authApi.refresh({ refreshToken });
    if (!refreshed.ok) return { ok: false, error: refreshed.error };
    authActor.send({ type: 'SESSION_UPDATE', session: refreshed.value });
    if (previous && authActor.getSnapshot().context.userId !== previousUserId) {
      void authApi.signOut({ refreshToken: previous.refreshToken }, previous.accessToken);
    }
    return { ok: true };
  }
  authActor.send({ type: 'SIGNIN', request: { method: 'refresh-token', refreshToken } });
  try {
    const settled = await waitFor(authActor, (snapshot) => authIn(snapshot, 'signedIn') || authIn(snapshot, 'signedOut.failed'), { timeout: EXCHANGE_TIMEOUT_MS });
    if (authIn(settled, 'signedIn')) return { ok: true };
    return { ok: false, error: settled.context.error ?? { status: 20, error: 'invalid-refresh-token', message: 'Invalid or expired refresh token' } };
  } catch {
    return { ok: false, error: { status: 0, error: 'network', message: 'The sign-in did not finish in time' } };
  }
}

/**
 * Exchanges a refresh token from a link or a sign-up for a session of the auth machine: SIGNIN
 * 'refresh-token' when signed out, SESSION_UPDATE when already signed in. Each token is spent once.
 */
export function exchangeRefreshToken(refreshToken: string): Promise<ExchangeResult> {
  let pending = exchanges.get(refreshToken);
  if (!pending) {
    pending = exchange(refreshToken);
    exchanges.set(refreshToken, pending);
  }
  return pending;
}

interface ReturnedError {
  readonly error: string;
  readonly description: string;
}

/** The `error` / `errorDescription` a provider or /verify sent back, unless it is the one to ignore. */
function returnedError(params: URLSearchParams): ReturnedError | undefined {
  const error = params.get('error');
  if (!error) return undefined;
  const description = params.get('errorDescription') ?? '';
  const ignored = [error, description].some((text) => text.trim().toLowerCase() === IGNORED_RETURN_ERROR);
  return ignored ? undefined : { error, description: description || error };
}

function Failure({ title, message }: { readonly title: string; readonly message: string }) {
  return (
    <Stack>
      <Title order={2}>Sign-in did not complete</Title>
      <Alert color="red" title={title} data-testid="redirect-error">{message}</Alert>
      <Anchor component={Link} to="/authenticate/signin">Back to sign in</Anchor>
    </Stack>
  );
}

export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<AuthErrorPayload | undefined>(undefined);
  const refreshToken = params.get('refreshToken');
  const type = params.get('type');
  const returned = returnedError(params);
  const passwordReset = type === 'passwordReset';
  const hasError = returned !== undefined;

  useEffect(() => {
    if (hasError || !refreshToken || passwordReset) return;
    let current = true;
    void exchangeRefreshToken(refreshToken).then((result) => {
      if (!current) return;
      if (result.ok) void navigate('/dashboard', { replace: true });
      else setFailure(result.error);
    });
    return () => {
      current = false;
    };
  }, [refreshToken, hasError, passwordReset, navigate]);

  if (returned) return <Failure title={returned.error} message={returned.description} />;
  // A reset link sent without its own redirect lands here: the reset page takes it.
  if (passwordReset) return <Navigate to={`/authenticate/reset-password?${params.toString()}`} replace />;
  if (!refreshToken) return <Navigate to="/authenticate/signin" replace />;
  if (failure) return <Failure title="The link could not sign you in" message={failure.message} />;
  return (
    <Center py="lg">
      <Stack align="center" gap="sm">
        <Loader aria-label="Signing you in" />
        <Text>Signing you in…</Text>
      </Stack>
    </Center>
  );
}

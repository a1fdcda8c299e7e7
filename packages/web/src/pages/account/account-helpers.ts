// Small pieces the account pages share: GraphQL error text, the acting user,
// request states (docs/PRODUCT.md section 4) and calls to the auth service that may need an elevated session.
import type { CombinedError } from 'urql';
import { authCall, authApi, type ApiResult } from '../../auth/auth-api';
import { clientError } from '../../auth/auth-errors';
import { authActor, currentAccessToken, useAuthState } from '../../auth/auth-service';
import type { AuthSession } from '../../auth/auth-types';
import { requestCredential } from '../../auth/webauthn';
import { useAppStore } from '../../stores/app-store';

/** docs/PRODUCT.md section 4: change e-mail, change password and the like go idle -> requesting -> success | error. */
export type RequestState = 'idle' | 'requesting' | 'success' | 'error';

/** docs/PRODUCT.md section 8: the success message of a saved setting. */
export const SETTINGS_UPDATED = 'Settings updated successfully';

/** The server's message of a GraphQL failure, without urql's "[GraphQL]" prefix. */
export function graphqlErrorMessage(error: CombinedError): string {
  const messages = error.graphQLErrors.map((graphQLError) => graphQLError.message).filter((message) => message !== '');
  if (messages.length > 0) return messages.join('; ');
  return error.networkError?.message ?? error.message;
}

/** The signed-in user's id (the actor), from the auth machine. */
export function useSignedInUserId(): string | undefined {
  return useAuthState((snapshot) => snapshot.context.userId);
}

/**
 * The user whose rows GraphQL reads and writes: the managed user while a manager acts for one
 * (the server takes `x-hasura-managed-user-id` as X-Hasura-User-Id), else the signed-in user.
 */
export function useActingUserId(): string | undefined {
  const signedIn = useSignedInUserId();
  const managed = useAppStore((state) => state.managedUserId);
  return managed ?? signedIn;
}

type AuthCall<T> = (accessToken: string) => Promise<ApiResult<T>>;

const notSignedIn = <T>(): ApiResult<T> => ({ ok: false, error: clientError('unauthenticated-user') });

/** Runs an auth-service call with the current access token. */
export async function withAccessToken<T>(call: AuthCall<T>): Promise<ApiResult<T>> {
  const token = currentAccessToken();
  return token ? call(token) : notSignedIn<T>();
}

/**
 * Elevates the session with a security key (AUTH_REQUIRE_ELEVATED_CLAIM) and hands the elevated
 * session to the auth machine. The options request carries the Bearer token: the server ties the
 * challenge to the signed-in user.
 */
async function elevateWithSecurityKey(accessToken: string): Promise<ApiResult<AuthSession>> {
  const user = await authApi.user(accessToken);
  if (!user.ok) return user;
  const email = user.value.email ?? undefined;
  const body = email ? { email } : {};
  const options = await authCall<PublicKeyCredentialRequestOptionsJSON>('/elevate/webauthn', { body, accessToken });
  if (!options.ok) return options;
  const credential = await requestCredential(options.value);
  if (!credential.ok) return credential;
  const verified = await authCall<{ session: AuthSession | null }>('/elevate/webauthn/verify', { body: { ...body, credential: credential.value }, accessToken });
  if (!verified.ok) return verified;
  const session = verified.value.session;
  if (!session) return { ok: false, error: { status: 401, error: 'elevated-claim-required', message: 'The security key did not elevate the session' } };
  authActor.send({ type: 'SESSION_UPDATE', session });
  return { ok: true, value: session };
}

/**
 * Runs a sensitive auth call (MFA change, new security key, new PAT). When the server asks for an
 * elevated session, the user confirms with a security key once and the call is repeated.
 */
export async function withElevation<T>(call: AuthCall<T>): Promise<ApiResult<T>> {
  const token = currentAccessToken();
  if (!token) return notSignedIn<T>();
  const first = await call(token);
  if (first.ok || first.error.error !== 'elevated-claim-required') return first;
  const elevated = await elevateWithSecurityKey(token);
  if (!elevated.ok) return elevated;
  return call(elevated.value.accessToken);
}

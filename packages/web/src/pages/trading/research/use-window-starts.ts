// The tier's earliest candle date per chart interval: the access token's x-hasura-W<n>m claims.
import { useMemo } from 'react';
import { currentAccessToken, useAuthState } from '../../../auth/auth-service';
import { readClaims } from '../../../auth/claims';

/** Interval minutes -> earliest `YYYY-MM-DD` the tier may chart; follows token refreshes. */
export function useWindowStarts(): Readonly<Record<number, string>> {
  const token = useAuthState((snapshot) => snapshot.context.session?.accessToken) ?? currentAccessToken();
  return useMemo(() => (token === undefined ? {} : readClaims(token)?.windowStarts ?? {}), [token]);
}

/** The signed-in user's id and the user being acted for (a manager's managed user), from the token and the app store. */
export function useTokenUserId(): string | undefined {
  const token = useAuthState((snapshot) => snapshot.context.session?.accessToken) ?? currentAccessToken();
  return useMemo(() => (token === undefined ? undefined : readClaims(token)?.userId), [token]);
}

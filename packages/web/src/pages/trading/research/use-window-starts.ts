// What the research screens read from the session: the tier's earliest candle date per chart
// interval (the access token's x-hasura-W<n>m claims) and whose rows the screen is about.
import { useMemo } from 'react';
import { currentAccessToken, useAuthState } from '../../../auth/auth-service';
import { readClaims, type TokenClaims } from '../../../auth/claims';
import { useAppStore } from '../../../stores/app-store';

function useClaims(): TokenClaims | undefined {
  const token = useAuthState((snapshot) => snapshot.context.session?.accessToken) ?? currentAccessToken();
  return useMemo(() => (token === undefined ? undefined : readClaims(token)), [token]);
}

/** Interval minutes -> earliest `YYYY-MM-DD` the tier may chart; follows token refreshes. */
export function useWindowStarts(): Readonly<Record<number, string>> {
  return useClaims()?.windowStarts ?? {};
}

/** The signed-in user's id (the server's X-Hasura-Actor-Id). */
export function useActorId(): string | undefined {
  return useClaims()?.userId;
}

/** The user the screen acts as: the managed user a manager acts for, else the signed-in user (X-Hasura-User-Id). */
export function useActingUserId(): string | undefined {
  const actor = useActorId();
  const managed = useAppStore((state) => state.managedUserId);
  return managed ?? actor;
}

// The signed-in user as the auth service knows it (e-mail, MFA status): GET /v1/auth/user.
import { useCallback, useEffect, useState } from 'react';
import { authApi } from '../../auth/auth-api';
import type { AuthErrorPayload, AuthUser } from '../../auth/auth-types';
import { withAccessToken } from './account-helpers';

export interface AuthUserState {
  readonly user: AuthUser | undefined;
  readonly error: AuthErrorPayload | undefined;
  readonly loading: boolean;
  /** Reads the user again (after an MFA or e-mail change). */
  reload(): void;
}

/** Loads the signed-in user once, and again on `reload()`. */
export function useAuthUser(): AuthUserState {
  const [user, setUser] = useState<AuthUser | undefined>(undefined);
  const [error, setError] = useState<AuthErrorPayload | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    void withAccessToken((token) => authApi.user(token)).then((result) => {
      if (!current) return;
      setLoading(false);
      if (result.ok) {
        setUser(result.value);
        setError(undefined);
      } else {
        setError(result.error);
      }
    });
    return () => {
      current = false;
    };
  }, [generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { user, error, loading, reload };
}

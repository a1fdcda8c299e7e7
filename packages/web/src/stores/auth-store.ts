// The auth store of docs/PRODUCT.md section 3 (session, mfa, error, userId, role, permissions), a mirror of
// the auth machine for screens that only read; docs/PRODUCT.md section 4: persisted in full.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AuthErrorPayload, AuthSession } from '../auth/auth-types';

export interface AuthStoreState {
  readonly session: AuthSession | undefined;
  readonly mfa: { readonly ticket: string } | undefined;
  readonly error: AuthErrorPayload | undefined;
  readonly userId: string | undefined;
  readonly role: string | undefined;
  readonly permissions: readonly string[];
  mirror(state: Omit<AuthStoreState, 'mirror' | 'reset'>): void;
  reset(): void;
}

const EMPTY = { session: undefined, mfa: undefined, error: undefined, userId: undefined, role: undefined, permissions: [] } as const;

export const useAuthStore = create<AuthStoreState>()(
  persist(
    (set) => ({
      ...EMPTY,
      mirror: (state) => set(state),
      reset: () => set({ ...EMPTY }),
    }),
    { name: 'vyuha-auth', storage: createJSONStorage(() => sessionStorage) },
  ),
);

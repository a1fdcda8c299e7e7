// Whose trading a screen shows: the signed-in user, or the user a manager acts for (the server's
// X-Hasura-User-Id). Staff and managers can read other users' rows, so every "my rows" query
// filters by this id explicitly instead of relying on the row permissions.
import { useAuthState } from '../../../auth/auth-service';
import { useAppStore } from '../../../stores/app-store';

export interface Subject {
  /** The user whose rows the screen shows; undefined before sign-in completes. */
  readonly userId: string | undefined;
  readonly role: string | undefined;
  readonly permissions: readonly string[];
  /** True while a manager acts for a managed user. */
  readonly actingForUser: boolean;
}

const NO_PERMISSIONS: readonly string[] = [];

export function useSubject(): Subject {
  const signedInUserId = useAuthState((snapshot) => snapshot.context.userId);
  const role = useAuthState((snapshot) => snapshot.context.role);
  const permissions = useAuthState((snapshot) => snapshot.context.permissions) ?? NO_PERMISSIONS;
  const managedUserId = useAppStore((state) => state.managedUserId);
  return { userId: managedUserId ?? signedInUserId, role, permissions, actingForUser: managedUserId !== undefined };
}

/**
 * Roles that may write strategies (the server's BUILDER_ROLES; docs/GRAPHQL-PERMISSIONS.md,
 * table strategies, update).
 */
export const STRATEGY_WRITER_ROLES: readonly string[] = ['advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin'];

/**
 * Roles that may insert subscriptions (the server's OWN_ROW_WRITER_ROLES: every tier and `user`)
 * and that see the marketplace (MARKETPLACE_ROLES: not support).
 */
export const SUBSCRIBER_ROLES: readonly string[] = ['trial', 'basic', 'advanced', 'demo', 'backtest', 'manager', 'administrator', 'superadmin', 'user'];

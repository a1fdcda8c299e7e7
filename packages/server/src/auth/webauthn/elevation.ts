import type { AuthContext, AuthenticatedUser } from '../context';

/**
 * AUTH_REQUIRE_ELEVATED_CLAIM for adding a security key: asked only of users who already own
 * one. Elevation is done with a security key, so a user without any could otherwise never add
 * their first (the core's requireElevation would refuse it in `required` mode).
 */
export async function requireElevationForKeyChange(context: AuthContext, user: AuthenticatedUser): Promise<void> {
  if (context.config.requireElevatedClaim === 'disabled' || user.elevated) return;
  const keys = await context.pool.query('SELECT 1 FROM auth.user_security_keys WHERE user_id = $1 LIMIT 1', [user.userId]);
  if (!keys.rowCount) return;
  await context.requireElevation(user);
}

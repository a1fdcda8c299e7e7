import type pg from 'pg';
import type { AuthContext } from '../context';
import { AuthError } from '../errors';
import { signUpFields } from '../sms/sign-up-fields';
import { inTransaction } from '../users';
import type { ProviderProfile } from './oauth-client';
import type { OAuthProviderId } from './providers';

// Who a provider sign-in is, in Vyuha: the user already linked to this provider account; else
// the signed-in user asking to `connect`; else the user with the same VERIFIED e-mail; else a
// new user. An unverified provider e-mail never links to an existing account (anyone can type
// any address at some providers).

/** How the provider sign-in was resolved, for the audit log. */
export type LinkOutcome = 'linked-before' | 'connected' | 'linked-by-email' | 'signed-up';

/** What was asked when the redirect started. */
export interface LinkRequest {
  readonly providerId: OAuthProviderId;
  readonly profile: ProviderProfile;
  readonly connectUserId: string | undefined;
  readonly signUpOptions: Readonly<Record<string, unknown>>;
}

/** Finds or creates the Vyuha user of a provider profile; throws AuthError when it must not. */
export async function resolveProviderUser(context: AuthContext, request: LinkRequest): Promise<{ userId: string; outcome: LinkOutcome }> {
  return inTransaction(context.pool, async (client) => {
    const linked = await client.query<{ user_id: string }>(
      'SELECT user_id FROM auth.user_providers WHERE provider_id = $1 AND provider_user_id = $2 FOR UPDATE',
      [request.providerId, request.profile.providerUserId],
    );
    const linkedUserId = linked.rows[0]?.user_id;
    if (linkedUserId !== undefined) {
      if (request.connectUserId !== undefined && request.connectUserId !== linkedUserId) {
        throw new AuthError('invalid-request', 'This provider account is already linked to another user');
      }
      return { userId: linkedUserId, outcome: 'linked-before' };
    }
    if (request.connectUserId !== undefined) {
      await link(client, { userId: request.connectUserId, request });
      return { userId: request.connectUserId, outcome: 'connected' };
    }
    const email = request.profile.email?.toLowerCase();
    if (email === undefined) throw new AuthError('oauth-profile-fetch-failed', 'The provider shared no e-mail address');
    const existing = await context.users.findByEmail(email, client);
    if (existing) {
      if (!request.profile.emailVerified) throw new AuthError('email-already-in-use', 'An account uses this e-mail; the provider has not verified it, so it cannot be linked');
      await link(client, { userId: existing.id, request });
      return { userId: existing.id, outcome: 'linked-by-email' };
    }
    if (context.config.disableSignup) throw new AuthError('signup-disabled');
    const fields = signUpFields(request.signUpOptions);
    const userId = await context.users.create({
      email,
      emailVerified: request.profile.emailVerified,
      displayName: fields.displayName ?? request.profile.displayName.slice(0, 32),
      ...(fields.locale === undefined && request.profile.locale !== undefined && context.config.allowedLocales.includes(request.profile.locale) ? { locale: request.profile.locale } : {}),
      ...fields,
      client,
    });
    if (request.profile.avatarUrl !== '') await client.query('UPDATE auth.users SET avatar_url = $2 WHERE id = $1', [userId, request.profile.avatarUrl]);
    await link(client, { userId, request });
    return { userId, outcome: 'signed-up' };
  });
}

async function link(client: pg.PoolClient, input: { userId: string; request: LinkRequest }): Promise<void> {
  try {
    await client.query(
      'INSERT INTO auth.user_providers (user_id, provider_id, provider_user_id) VALUES ($1, $2, $3)',
      [input.userId, input.request.providerId, input.request.profile.providerUserId],
    );
  } catch (error) {
    // UNIQUE (user_id, provider_id): the user already has another account of this provider.
    if ((error as { code?: string }).code === '23505') throw new AuthError('invalid-request', 'This user is already linked to another account of this provider');
    throw error;
  }
}

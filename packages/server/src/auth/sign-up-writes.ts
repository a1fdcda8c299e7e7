import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { AuthContext, CreateUserOptions } from './context';
import { inBackground, sendSignUpAttemptNotice } from './endpoints/emails';
import { AuthError } from './errors';
import { isTakenIdentity } from './sms/sign-up-fields';
import { inTransaction } from './users';

/**
 * What a sign-up writes, shared by e-mail + password and security-key sign-up (README
 * "Hardening"), so that while e-mail verification is required a taken address cannot be told
 * from a new one:
 *
 * - the work is the same: one transaction writes the user, role and profile rows (and whatever
 *   else the method stores, such as the security key) and the audit row, then commits; for a
 *   taken address the rows are written under a throw-away address and rolled back to a savepoint,
 *   so nothing of the existing account changes and no second account appears;
 * - the answer is the same (`{session: null}`), and the owner of the taken address is mailed
 *   "someone tried to sign up with your address" after the answer, instead of the one who tried.
 *
 * Without verification a new address is signed in at once, so a taken one must be told: 409
 * email-already-in-use.
 */

/** An existing account found by the address. */
export interface TakenAccount {
  readonly id: string;
  readonly disabled: boolean;
  readonly isAnonymous: boolean;
}

export interface WriteSignUpInput {
  readonly request: FastifyRequest;
  readonly create: CreateUserOptions;
  /** The account the address belongs to already, if any (looked up before the transaction). */
  readonly existing: TakenAccount | undefined;
  /** `details.method` of the audit rows. */
  readonly method: 'email-password' | 'webauthn';
  /** More rows of the new user, in the same transaction (rehearsed too for a taken address). */
  readonly alsoWrite?: (client: pg.PoolClient, userId: string) => Promise<void>;
}

/** Writes the sign-up (or rehearses it for a taken address); a race for the address counts as taken. */
export async function writeSignUp(context: AuthContext, input: WriteSignUpInput): Promise<{ userId: string } | { taken: TakenAccount }> {
  try {
    return await writeOrRehearse(context, input);
  } catch (error) {
    // Another sign-up took the address meanwhile.
    const winner = isTakenIdentity(error) && input.create.email !== undefined ? await context.users.findByEmail(input.create.email) : undefined;
    if (!winner) throw error;
    return { taken: winner };
  }
}

async function writeOrRehearse(context: AuthContext, input: WriteSignUpInput): Promise<{ userId: string } | { taken: TakenAccount }> {
  const { request, existing, method } = input;
  return inTransaction(context.pool, async (client) => {
    // The same statements either way: a savepoint, the rows, then the savepoint released (a new
    // address) or rolled back to (a taken one), the audit row, the commit.
    await client.query('SAVEPOINT sign_up');
    if (existing) {
      const rehearsed = await context.users.create({ ...input.create, email: `rehearsal-${randomUUID()}@signup.invalid`, client });
      await input.alsoWrite?.(client, rehearsed);
      await client.query('ROLLBACK TO SAVEPOINT sign_up');
      await context.audit.record({ action: 'auth.signup_existing_address', entityId: existing.id, details: { method }, request, client });
      return { taken: existing };
    }
    const userId = await context.users.create({ ...input.create, client });
    await input.alsoWrite?.(client, userId);
    await client.query('RELEASE SAVEPOINT sign_up');
    await context.audit.record({ action: 'auth.signup', actorUserId: userId, entityId: userId, details: { method }, request, client });
    return { userId };
  });
}

/**
 * A taken address: with verification required, the answer of a new address and a notice to the
 * owner (after the answer; nothing to a disabled or anonymous account); without, 409.
 */
export function answerTakenSignUp(context: AuthContext, input: { email: string; existing: TakenAccount }): { session: null } {
  const { existing } = input;
  if (!context.config.emailVerifiedRequired) throw new AuthError('email-already-in-use');
  if (!existing.disabled && !existing.isAnonymous) {
    inBackground(context, 'sign-up attempt notice', () => sendSignUpAttemptNotice(context, { userId: existing.id, email: input.email }));
  }
  return { session: null };
}

/**
 * The GraphQL transport's environment variables (README.md, Configuration), read and checked once
 * at start; a bad value is a ConfigError naming its variable.
 *
 * - `VYUHA_GRAPHQL_ADDRESS_BUDGET`: requests per client address, `<requests>/<seconds>`;
 * - `VYUHA_GRAPHQL_USER_BUDGET`: requests per signed-in user, `<requests>/<seconds>`;
 * - `VYUHA_GRAPHQL_MAX_IN_FLIGHT`: operations worked on at once (one address: half of them).
 */
import { ConfigError } from '../config';
import type { TransportLimits } from './limits';
import type { BudgetRule } from './request-budget';

/** The transport limits the environment sets (unset variables leave the defaults). */
export function readGraphqlLimits(env: NodeJS.ProcessEnv): Partial<TransportLimits> {
  const limits: { -readonly [K in keyof TransportLimits]?: TransportLimits[K] } = {};
  const address = readBudget(env, 'VYUHA_GRAPHQL_ADDRESS_BUDGET');
  if (address) limits.addressBudget = address;
  const user = readBudget(env, 'VYUHA_GRAPHQL_USER_BUDGET');
  if (user) limits.userBudget = user;
  const inFlight = readWhole(env, 'VYUHA_GRAPHQL_MAX_IN_FLIGHT');
  if (inFlight !== undefined) {
    limits.maxInFlight = inFlight;
    limits.maxInFlightPerAddress = Math.max(1, Math.floor(inFlight / 2));
  }
  return limits;
}

/**
 * `<requests>/<seconds>`, both positive whole numbers.
 * @example readBudget({ X: '600/60' }, 'X') -> { requests: 600, perSeconds: 60 }
 */
export function readBudget(env: NodeJS.ProcessEnv, name: string): BudgetRule | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  const requests = Number(match?.[1]);
  const perSeconds = Number(match?.[2]);
  if (!match || !(requests > 0) || !(perSeconds > 0) || !Number.isSafeInteger(requests) || !Number.isSafeInteger(perSeconds)) {
    throw new ConfigError(`${name} must be <requests>/<seconds> with two positive whole numbers, e.g. 600/60; got "${raw}"`);
  }
  return { requests, perSeconds };
}

function readWhole(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

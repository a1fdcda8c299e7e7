// Client order ids and broker tags: the names an order carries before any venue has seen it.
//
// The OMS writes the order row with its client order id BEFORE sending (ARCHITECTURE.md, "The
// life of a live order"), and that id is what finds the order again when a send's outcome is
// unknown. So the id is derived, never drawn at random: run id + the run's order sequence number.
//
// Invariants:
// - `clientOrderIdFor` is injective: the sequence is digits only and follows the last `-`, so the
//   run id and the sequence are read back unambiguously (`parseClientOrderId`).
// - Every id matches the orders table's check `^[A-Za-z0-9_-]{1,64}$` (at most 36 + 1 + 16 = 53).
// - A sequence number is used once per run; a re-decided order takes the next number, never the
//   same id twice (execution/README.md, "An order the venue never received").
//
// Brokers limit the tag they echo back: Kite takes at most 20 letters and digits
// (docs/BROKER-KITE.md). `brokerTagFor` packs the same two facts into 20 characters; the OMS stores
// it in `orders.tag` so an order found at the venue by its tag maps back to its row.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';

declare const clientOrderIdBrand: unique symbol;

/** A client order id as the orders table stores it; only this module makes one. */
export type ClientOrderId = string & { readonly [clientOrderIdBrand]: 'ClientOrderId' };

/** Where a client order id came from. */
export interface ClientOrderIdParts {
  /** The strategy run (a UUID, lower case). */
  readonly runId: string;
  /** The run's order number, 0, 1, 2, ... */
  readonly sequence: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CLIENT_ORDER_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(0|[1-9][0-9]{0,15})$/;
/** The orders table's own check on `client_order_id`. */
export const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Kite's tag limit (docs/BROKER-KITE.md). */
export const BROKER_TAG_LENGTH = 20;
const TAG_RUN_DIGITS = 13;
const TAG_SEQUENCE_DIGITS = 6;
/** The largest sequence a 20-character tag can carry: 36^6 - 1. */
export const MAX_TAGGED_SEQUENCE = 36 ** TAG_SEQUENCE_DIGITS - 1;

function checkParts(parts: ClientOrderIdParts): Result<{ runId: string; sequence: number }, string> {
  const runId = typeof parts.runId === 'string' ? parts.runId.toLowerCase() : '';
  if (!UUID.test(runId)) return err(`runId must be a UUID, got ${JSON.stringify(parts.runId)}`);
  if (!Number.isSafeInteger(parts.sequence) || parts.sequence < 0) {
    return err(`sequence must be a whole number from 0, got ${String(parts.sequence)}`);
  }
  return ok({ runId, sequence: parts.sequence });
}

/**
 * The client order id of a run's `sequence`-th order.
 * @example clientOrderIdFor({ runId: '0f8e...c2', sequence: 7 }) // { ok: true, value: '0f8e...c2-7' }
 */
export function clientOrderIdFor(parts: ClientOrderIdParts): Result<ClientOrderId, string> {
  const checked = checkParts(parts);
  if (!checked.ok) return checked;
  return ok(`${checked.value.runId}-${checked.value.sequence}` as ClientOrderId);
}

/** The run id and sequence of a client order id; an error for text this module did not make. */
export function parseClientOrderId(text: string): Result<ClientOrderIdParts, string> {
  const match = CLIENT_ORDER_ID.exec(text);
  if (match === null || match[1] === undefined || match[2] === undefined || !Number.isSafeInteger(Number(match[2]))) {
    return err(`clientOrderId must be "<run uuid>-<sequence>", got ${JSON.stringify(text)}`);
  }
  return ok({ runId: match[1], sequence: Number(match[2]) });
}

/** Brands text already stored as a client order id (a row read back); refuses what the table would refuse. */
export function asClientOrderId(text: string): Result<ClientOrderId, string> {
  if (!CLIENT_ORDER_ID_PATTERN.test(text)) return err(`clientOrderId must match ${CLIENT_ORDER_ID_PATTERN.source}, got ${JSON.stringify(text)}`);
  return ok(text as ClientOrderId);
}

/**
 * The 20-character broker tag of an order: 'v', the first 64 bits of the run id in 13 base-36
 * digits, the sequence in 6 base-36 digits. Unique within a run; across runs unique unless two
 * run ids share their first 64 bits, which is why the OMS keeps the tag on the order row and
 * resolves a tag through the database, not by decoding it.
 * @example brokerTagFor({ runId: '00000000-0000-0000-0000-000000000001', sequence: 35 }) // ok('v000000000000000000z')
 */
export function brokerTagFor(parts: ClientOrderIdParts): Result<string, string> {
  const checked = checkParts(parts);
  if (!checked.ok) return checked;
  if (checked.value.sequence > MAX_TAGGED_SEQUENCE) {
    return err(`sequence must be at most ${MAX_TAGGED_SEQUENCE} to fit a ${BROKER_TAG_LENGTH}-character tag, got ${checked.value.sequence}`);
  }
  const runBits = BigInt(`0x${checked.value.runId.replaceAll('-', '').slice(0, 16)}`);
  const tag = `v${runBits.toString(36).padStart(TAG_RUN_DIGITS, '0')}${checked.value.sequence.toString(36).padStart(TAG_SEQUENCE_DIGITS, '0')}`;
  return ok(tag);
}

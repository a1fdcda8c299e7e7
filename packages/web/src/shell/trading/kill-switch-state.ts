// The kill switch as the header shows it, folded from rows the server stores: the switch rows
// (kill_switches: the account's own and, for administrators, the global one with user_id null)
// and the orders that say what the switch did. The server keeps no list of its own for the user
// (its enforcement goes to audit_log, which users cannot read), so "what it did" is read from the
// orders themselves: those cancelled since the switch went on, and the square-off orders placed
// since then (orders.square_off).
import { parseTimestamp } from '../../format/format';

export interface KillSwitchRow {
  readonly kill_switch_id: string;
  readonly user_id: string | null;
  readonly is_on: boolean;
  readonly square_off: boolean;
  readonly changed_at: string;
  readonly changed_by: string | null;
}

export interface SwitchOrderRow {
  readonly order_id: string;
  readonly client_order_id: string;
  readonly side: string;
  readonly quantity: number;
  readonly status: string;
  readonly status_message: string | null;
  readonly square_off: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly instrument: { readonly trading_symbol: string } | null;
  readonly strategy: { readonly name: string } | null;
}

export interface SwitchState {
  readonly on: boolean;
  readonly squareOff: boolean;
  /** When it was last set, epoch ms (undefined when the account never had a row). */
  readonly since: number | undefined;
}

export interface SwitchEffects {
  readonly cancelled: readonly SwitchOrderRow[];
  readonly squareOffs: readonly SwitchOrderRow[];
}

const OFF: SwitchState = { on: false, squareOff: false, since: undefined };

/**
 * The switch of `userId` (a uuid) or the global one (null) among the rows; off when it has no row.
 * @example switchOf([{ user_id: 'u', is_on: true, square_off: false, changed_at: '2026-11-27T04:00:00Z', ... }], 'u') // { on: true, squareOff: false, since: 1795752000000 }
 */
export function switchOf(rows: readonly KillSwitchRow[] | undefined, userId: string | null): SwitchState {
  const row = rows?.find((candidate) => candidate.user_id === userId);
  if (row === undefined) return OFF;
  return { on: row.is_on, squareOff: row.is_on && row.square_off, since: parseTimestamp(row.changed_at) };
}

/**
 * What the switch did since `sinceMs`: the orders cancelled at or after it, and the square-off
 * orders placed at or after it, each newest first. An order both cancelled and a square-off
 * counts as a square-off (the switch placed it; something else ended it).
 */
export function switchEffects(orders: readonly SwitchOrderRow[] | undefined, sinceMs: number | undefined): SwitchEffects {
  if (orders === undefined || sinceMs === undefined) return { cancelled: [], squareOffs: [] };
  const after = (value: string): boolean => (parseTimestamp(value) ?? Number.NEGATIVE_INFINITY) >= sinceMs;
  const newestFirst = (a: SwitchOrderRow, b: SwitchOrderRow): number => (parseTimestamp(b.updated_at) ?? 0) - (parseTimestamp(a.updated_at) ?? 0);
  const squareOffs = orders.filter((order) => order.square_off && after(order.created_at)).sort(newestFirst);
  const cancelled = orders.filter((order) => !order.square_off && order.status === 'CANCELLED' && after(order.updated_at)).sort(newestFirst);
  return { cancelled, squareOffs };
}

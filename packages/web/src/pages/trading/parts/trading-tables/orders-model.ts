// What the orders table shows of an order and its fills, as pure functions: the order states of
// the OMS (docs/PRODUCT.md section 4; the state machine of packages/engine/src/execution) with a
// colour and words each, a fill's charges summed from their breakdown, and the row's price texts.
// Money stays integer paise until the text is made (bigint columns may arrive as strings).
import { formatPrice, formatRupees, MISSING_VALUE } from '@vyuha/core';

export type OrderState =
  | 'PENDING_SUBMIT' | 'SUBMITTED' | 'OPEN' | 'PARTIALLY_FILLED' | 'PENDING_CANCEL' | 'FILLED' | 'CANCELLED' | 'REJECTED' | 'UNKNOWN';

/** Every order state with its badge colour and words. */
export const ORDER_STATES: Readonly<Record<OrderState, { readonly color: string; readonly label: string }>> = {
  PENDING_SUBMIT: { color: 'gray', label: 'Pending submit' },
  SUBMITTED: { color: 'blue', label: 'Submitted' },
  OPEN: { color: 'indigo', label: 'Open' },
  PARTIALLY_FILLED: { color: 'cyan', label: 'Partially filled' },
  PENDING_CANCEL: { color: 'yellow', label: 'Cancelling' },
  FILLED: { color: 'teal', label: 'Filled' },
  CANCELLED: { color: 'dark', label: 'Cancelled' },
  REJECTED: { color: 'red', label: 'Rejected' },
  UNKNOWN: { color: 'orange', label: 'Unknown at the venue' },
};

/** The colour and words of a state; an unexpected one is shown as it is, grey. @example orderState('FILLED').label // 'Filled' */
export function orderState(status: string): { readonly color: string; readonly label: string } {
  return (ORDER_STATES as Record<string, { color: string; label: string }>)[status] ?? { color: 'gray', label: status };
}

/** A GraphQL integer column (bigint arrives as a string) as a number; undefined when absent. */
export function paiseOf(value: number | string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** A price column as text without the rupee sign, or a dash. @example priceText('2144320') // '21,443.20' */
export function priceText(value: number | string | null | undefined): string {
  const paise = paiseOf(value);
  return paise === undefined ? MISSING_VALUE : formatPrice(paise);
}

/** The charges of a fill: the sum of its breakdown (every value whole paise). @example chargesTotal({ brokerage: 2000, gst: 360 }) // 2360 */
export function chargesTotal(breakdown: unknown): number {
  if (breakdown === null || typeof breakdown !== 'object') return 0;
  let total = 0;
  for (const value of Object.values(breakdown as Record<string, unknown>)) {
    const paise = typeof value === 'number' || typeof value === 'string' ? paiseOf(value) : undefined;
    if (paise !== undefined) total += paise;
  }
  return total;
}

const CHARGE_NAMES: Readonly<Record<string, string>> = {
  brokerage: 'Brokerage', stt: 'STT', exchange: 'Exchange', sebi: 'SEBI', stamp: 'Stamp duty', gst: 'GST',
};

/** The breakdown as "Brokerage ₹20.00 · GST ₹3.60", largest first, zero parts left out. */
export function chargesBreakdownText(breakdown: unknown): string {
  if (breakdown === null || typeof breakdown !== 'object') return '';
  return Object.entries(breakdown as Record<string, unknown>)
    .map(([name, value]) => ({ name, paise: typeof value === 'number' || typeof value === 'string' ? paiseOf(value) ?? 0 : 0 }))
    .filter((part) => part.paise > 0)
    .sort((a, b) => b.paise - a.paise)
    .map((part) => `${CHARGE_NAMES[part.name] ?? part.name} ${formatRupees(part.paise)}`)
    .join(' · ');
}

/** The trigger and limit prices of an order as one text: "T 21,400.00 / L 21,390.00", or one of them, or a dash. */
export function triggerLimitText(order: { readonly trigger_price_paise: number | string | null; readonly price_paise: number | string | null }): string {
  const parts: string[] = [];
  if (paiseOf(order.trigger_price_paise) !== undefined) parts.push(`T ${priceText(order.trigger_price_paise)}`);
  if (paiseOf(order.price_paise) !== undefined) parts.push(`L ${priceText(order.price_paise)}`);
  return parts.length === 0 ? MISSING_VALUE : parts.join(' / ');
}

// How the stand-in writes and reads Kite's wire values: rupees on HTTP (exactly, from integer paise),
// "YYYY-MM-DD HH:MM:SS" timestamps in IST, and the success and error envelopes
// (docs/BROKER-KITE.md, "Errors"). Paise stay integers everywhere inside the stand-in.
import type { ServerResponse } from 'node:http';

const IST_OFFSET_MS = 330 * 60_000;

/** Kite's error types the stand-in answers with. */
export type KiteErrorType =
  | 'TokenException' | 'InputException' | 'OrderException' | 'MarginException' | 'NetworkException' | 'GeneralException';

/** An error the routes answer with: HTTP status, Kite error type and message. */
export class KiteError extends Error {
  constructor(readonly status: number, readonly errorType: KiteErrorType, message: string) {
    super(message);
  }
}

/**
 * Paise as Kite's rupee number; exact because a whole number of paise / 100 prints as its decimal.
 * @example rupees(2_450_005) // 24500.05
 */
export function rupees(paise: number): number {
  return paise / 100;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * Decimal rupee text from a form as paise, read as text (no float maths) and rounded half away from
 * zero at the paisa, but only when the digits past the paisa are float noise (within a millionth of a
 * rupee, as "1399.9500000000001" from a JS number): a real fraction of a paisa is no price. Undefined
 * when it is no price.
 * @example paiseFromText('101.5') // 10150
 * @example paiseFromText('101.505') // undefined
 */
export function paiseFromText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  const micro = Number(whole) * 1_000_000 + Number(fraction.slice(0, 6).padEnd(6, '0'));
  const paise = Math.round(micro / 10_000);
  if (Math.abs(micro - paise * 10_000) > 1) return undefined;
  return Number.isSafeInteger(paise) ? paise : undefined;
}

function istParts(ms: number): { date: string; time: string } {
  const iso = new Date(ms + IST_OFFSET_MS).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** @example istTimestamp(Date.UTC(2026, 2, 2, 3, 45)) // '2026-03-02 09:15:00' */
export function istTimestamp(ms: number): string {
  const { date, time } = istParts(ms);
  return `${date} ${time}`;
}

/** The time of day alone, as the trade's order_timestamp. @example istTime(Date.UTC(2026, 2, 2, 3, 45)) // '09:15:00' */
export function istTime(ms: number): string {
  return istParts(ms).time;
}

/** The IST calendar date. @example istDate(Date.UTC(2026, 2, 2, 20, 0)) // '2026-03-03' */
export function istDate(ms: number): string {
  return istParts(ms).date;
}

/** 06:00 IST after `ms`: when an access token issued at `ms` stops working. */
export function nextSixAmIst(ms: number): number {
  const dayStart = Date.parse(`${istDate(ms)}T00:00:00Z`) - IST_OFFSET_MS;
  const sixToday = dayStart + 6 * 3_600_000;
  return ms < sixToday ? sixToday : sixToday + 86_400_000;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

export function sendSuccess(response: ServerResponse, data: unknown): void {
  sendJson(response, 200, { status: 'success', data });
}

export function sendError(response: ServerResponse, error: KiteError): void {
  sendJson(response, error.status, { status: 'error', message: error.message, data: null, error_type: error.errorType });
}

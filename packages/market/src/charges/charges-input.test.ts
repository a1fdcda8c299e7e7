import { paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { chargesFor } from './charges';
import type { ChargesInput } from './charges-input';
import { InvalidChargesInputError } from './charges-input-error';

const good: ChargesInput = { date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 };

function problemWith(input: unknown): InvalidChargesInputError {
  try {
    chargesFor(input as ChargesInput);
  } catch (error) {
    if (error instanceof InvalidChargesInputError) return error;
    throw error;
  }
  throw new Error('expected the input to be refused');
}

describe('chargesFor input', () => {
  it('treats NFO and BFO as NSE and BSE', () => {
    expect(chargesFor({ ...good, exchange: 'NFO' })).toEqual(chargesFor(good));
    expect(chargesFor({ ...good, exchange: 'BFO' })).toEqual(chargesFor({ ...good, exchange: 'BSE' }));
  });

  it.each([
    [{ exchange: 'CDS' }, 'exchange'],
    [{ instrument: 'swap' }, 'instrument'],
    [{ side: 'short' }, 'side'],
    [{ event: 'assign' }, 'event'],
    [{ date: '2024-02-30' }, 'date'],
    [{ date: '15-10-2024' }, 'date'],
    [{ date: '2019-12-31' }, 'date'],
    [{ price: -5 }, 'price'],
    [{ price: 120.5 }, 'price'],
    [{ quantity: 0 }, 'quantity'],
    [{ quantity: 7.5 }, 'quantity'],
    [{ price: 9_000_000_000, quantity: 9_000_000 }, 'quantity'],
    [{ event: 'exercise' }, 'settlementPrice'],
    [{ event: 'exercise', settlementPrice: -1 }, 'settlementPrice'],
    [{ instrument: 'future', event: 'exercise', settlementPrice: 100 }, 'event'],
    [{ brokerage: { kind: 'flat', perOrder: -1 } }, 'brokerage.perOrder'],
    [{ brokerage: { kind: 'percentage', percent: 0.0000001, cap: 2000 } }, 'brokerage.percent'],
    [{ brokerage: { kind: 'percentage', percent: 101, cap: 2000 } }, 'brokerage.percent'],
    [{ brokerage: { kind: 'percentage', percent: 0.03, cap: 1.5 } }, 'brokerage.cap'],
  ])('refuses %j naming %s', (change, field) => {
    const error = problemWith({ ...good, ...change });
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });
});

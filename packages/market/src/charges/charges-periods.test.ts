import { addDays, isoDate, paise } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { CHARGE_SCHEDULE, CHARGE_SCHEDULE_START, isRowInForce } from './charge-schedule';
import type { ChargeExchange, ChargeInstrument, ChargeScheduleRow, TradeSide } from './charge-schedule';
import { chargesFor } from './charges';
import type { ChargeEvent } from './charges-input';

// chargesFor looks the schedule up once per kind of order and period between two rate changes
// (charges.ts, OrderRates). Every date must still get the rows in force on that date, whichever
// dates were asked before it.

/** The rows an order of this kind shows, straight from the schedule (basis and side, then GST), in schedule order. */
function rowsInForce(query: { date: IsoDate; exchange: ChargeExchange; instrument: ChargeInstrument; side: TradeSide; event: ChargeEvent }): readonly ChargeScheduleRow[] {
  if (query.event === 'expire-worthless') return [];
  const basis = query.event === 'exercise' ? 'exercise-value' : 'traded-value';
  const inForce = CHARGE_SCHEDULE.filter((row) => row.instrument === query.instrument && (row.exchange === undefined || row.exchange === query.exchange) && isRowInForce(row, query.date));
  const gst = inForce.find((row) => row.basis === 'taxable-charges');
  return inForce.filter((row) => (row.basis === basis && (row.side === 'both' || row.side === query.side)) || row === gst);
}

describe('chargesFor across the schedule\'s dates', () => {
  it('charges each date at the rates in force that day, whatever dates were asked before', () => {
    // Rs 10,00,000 of futures sold: STT 0.01% to Mar-2023, 0.0125% to Sep-2024, 0.02% to Mar-2026, then 0.05%.
    const stt = (date: string): number => chargesFor({ date, exchange: 'NSE', instrument: 'future', side: 'sell', price: paise(2_000_000), quantity: 50 }).components.stt;
    const dates = ['2026-04-01', '2026-03-31', '2024-10-01', '2024-09-30', '2023-04-01', '2023-03-31', '2020-01-01', '2026-04-01', '2023-03-31'];
    expect(dates.map(stt)).toEqual([50_000, 20_000, 20_000, 12_500, 12_500, 10_000, 10_000, 50_000, 10_000]);
  });

  it('shows on every day a rate starts or stops, and the day before, the rows in force then', () => {
    const edges = new Set<IsoDate>();
    for (const row of CHARGE_SCHEDULE) {
      for (const date of row.to === undefined ? [row.from] : [row.from, row.to]) {
        edges.add(date);
        if (date > CHARGE_SCHEDULE_START) edges.add(addDays(date, -1));
      }
    }
    let checked = 0;
    for (const date of [...edges].sort().reverse()) {
      for (const exchange of ['NSE', 'BSE'] as const) {
        for (const side of ['buy', 'sell'] as const) {
          const kinds = [
            { instrument: 'future', event: 'trade' }, { instrument: 'option', event: 'trade' },
            { instrument: 'option', event: 'exercise' }, { instrument: 'option', event: 'expire-worthless' },
          ] as const;
          for (const { instrument, event } of kinds) {
            const result = chargesFor({ date, exchange, instrument, side, event, price: paise(12_345), quantity: 75, ...(event === 'trade' ? {} : { settlementPrice: paise(event === 'exercise' ? 5_000 : 0) }) });
            expect(result.rates, `${date} ${exchange} ${instrument} ${side} ${event}`).toEqual(rowsInForce({ date, exchange, instrument, side, event }));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('gives the orders of one kind and period one frozen list of rates', () => {
    const order = { exchange: 'NFO', instrument: 'option', side: 'sell', quantity: 75 } as const;
    const first = chargesFor({ ...order, date: isoDate('2024-10-15'), price: paise(12_050) });
    const second = chargesFor({ ...order, date: isoDate('2025-02-03'), price: paise(9_990) });
    expect(second.rates).toBe(first.rates);
    expect(Object.isFrozen(first.rates)).toBe(true);
    expect(chargesFor({ ...order, date: isoDate('2024-09-30'), price: paise(12_050) }).rates).not.toBe(first.rates);
  });
});

// Charges on delivery (CNC) equity trades on NSE's cash market: what a swing strategy on a stock
// pays. The cash market's turnover charges (NSE transaction charge, Investor Protection Fund,
// SEBI fee, GST) are the intraday schedule's (equity-intraday.ts, with its sources); delivery
// differs in two statutory rates and in the broker's price:
// - STT 0.1% on both the buy and the sell of a delivery trade (Finance Act 2004 as amended;
//   unchanged over 2020-2026).
// - Stamp duty 0.015% on the buy side for delivery, under the Indian Stamp Act amendment of
//   1-Jul-2020 (carried back to 2020-01-01 as the other schedules do).
// - Brokerage Rs 0: discount brokers (Zerodha, the plan the intraday schedule follows) charge
//   nothing for equity delivery. A plan can be passed per order.
// Not modelled: the depository's DP charge on a delivery sell (a flat fee per scrip per day,
// billed by the depository participant, not the exchange).
import { paise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import type { BrokeragePlan } from './brokerage';
import { CHARGE_SCHEDULE_START } from './charge-schedule';
import type { ChargeComponents } from './charges';
import { EQUITY_INTRADAY_SCHEDULE, equityChargesOn } from './equity-intraday';
import type { EquityIntradayChargesInput, EquityIntradayRate } from './equity-intraday';

/** NSE delivery equity rates from 2020: the intraday schedule's turnover charges with delivery's STT and stamp duty. */
export const EQUITY_DELIVERY_SCHEDULE: readonly EquityIntradayRate[] = [
  { component: 'stt', side: 'both', rate: 100_000, from: CHARGE_SCHEDULE_START },
  { component: 'stamp-duty', side: 'buy', rate: 15_000, from: CHARGE_SCHEDULE_START },
  ...EQUITY_INTRADAY_SCHEDULE.filter((row) => row.component !== 'stt' && row.component !== 'stamp-duty'),
];

/** No brokerage on delivery trades. */
export const EQUITY_DELIVERY_BROKERAGE_PLAN: BrokeragePlan = { kind: 'flat', perOrder: paise(0) };

/**
 * Charges on one delivery equity order on NSE, each component rounded once to the paisa half up,
 * STT to the rupee.
 * @example equityDeliveryChargesFor({ date: '2024-10-15', exchange: 'NSE', side: 'buy', price: paise(50_000), quantity: 100 }).total // 5937 (Rs 59.37)
 */
export function equityDeliveryChargesFor(input: EquityIntradayChargesInput): { components: ChargeComponents; total: Paise; turnover: Paise } {
  return equityChargesOn(EQUITY_DELIVERY_SCHEDULE, { input, defaultPlan: EQUITY_DELIVERY_BROKERAGE_PLAN });
}

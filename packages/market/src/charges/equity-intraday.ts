// Charges on intraday (MIS) equity delivery-free trades on NSE's cash market, as a dated
// schedule. docs/MARKET-RULES.md covers index derivatives; these rates are from public sources:
// - STT 0.025% on the sell side of intraday equity (Finance Act 2013 rate, unchanged since; the
//   Finance Act 2026 changes named in docs/MARKET-RULES.md concern F&O).
// - NSE transaction charge: NSE circular on uniform ("true to label") charges effective
//   1-Oct-2024: Rs 2.97 per lakh (0.00297%) of cash-market turnover. Before that NSE billed
//   members by monthly slabs; brokers' tariff pages showed 0.00325% to 0.00345%. 0.00325% is
//   carried here as the one representative per-trade rate for 2020-Sep-2024.
// - NSE Investor Protection Fund Trust: Rs 10 per crore (0.0001%) of cash turnover.
// - SEBI turnover fee: Rs 10 per crore (0.0001%), both sides.
// - Stamp duty: 0.003% on the buy side for intraday, uniform under the Indian Stamp Act
//   amendment from 1-Jul-2020 (carried back to 2020-01-01, as the derivatives schedule does).
// - GST 18% on brokerage + transaction charge + SEBI fee.
// - Brokerage (the broker's price, not the market's): 0.03% or Rs 20 per order, whichever is lower.
import { isIsoDate, isoDate, paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { brokerageFor } from './brokerage';
import type { BrokeragePlan } from './brokerage';
import { CHARGE_SCHEDULE_START } from './charge-schedule';
import type { TradeSide } from './charge-schedule';
import { exactAmount, roundToPaisa, roundToRupee, toPaise } from './charge-math';
import type { ChargeComponents } from './charges';
import { InvalidChargesInputError } from './charges-input-error';

export type EquityChargeComponent = 'stt' | 'exchange-transaction' | 'investor-protection' | 'sebi-fee' | 'stamp-duty' | 'gst';

/** One dated rate in parts per 10^8; `from` inclusive, `to` exclusive, as in CHARGE_SCHEDULE. */
export interface EquityIntradayRate {
  readonly component: EquityChargeComponent;
  readonly side: TradeSide | 'both';
  readonly rate: number;
  readonly from: IsoDate;
  readonly to?: IsoDate;
}

const TRUE_TO_LABEL = isoDate('2024-10-01');

/** NSE intraday equity rates from 2020. GST's basis is brokerage + transaction charge + SEBI fee; the others apply to traded value. */
export const EQUITY_INTRADAY_SCHEDULE: readonly EquityIntradayRate[] = [
  { component: 'stt', side: 'sell', rate: 25_000, from: CHARGE_SCHEDULE_START },
  { component: 'exchange-transaction', side: 'both', rate: 3_250, from: CHARGE_SCHEDULE_START, to: TRUE_TO_LABEL },
  { component: 'exchange-transaction', side: 'both', rate: 2_970, from: TRUE_TO_LABEL },
  { component: 'investor-protection', side: 'both', rate: 100, from: CHARGE_SCHEDULE_START },
  { component: 'sebi-fee', side: 'both', rate: 100, from: CHARGE_SCHEDULE_START },
  { component: 'stamp-duty', side: 'buy', rate: 3_000, from: CHARGE_SCHEDULE_START },
  { component: 'gst', side: 'both', rate: 18_000_000, from: CHARGE_SCHEDULE_START },
];

/** 0.03% or Rs 20 per executed order, whichever is lower. */
export const EQUITY_INTRADAY_BROKERAGE_PLAN: BrokeragePlan = { kind: 'percentage', percent: 0.03, cap: paise(2_000) };

export interface EquityIntradayChargesInput {
  readonly date: string;
  readonly exchange: 'NSE';
  readonly side: TradeSide;
  /** Paise per share. */
  readonly price: Paise;
  readonly quantity: number;
  /** Default EQUITY_INTRADAY_BROKERAGE_PLAN. */
  readonly brokerage?: BrokeragePlan;
}

function rateOn(schedule: readonly EquityIntradayRate[], component: EquityChargeComponent, options: { date: IsoDate; side: TradeSide }): number {
  const row = schedule.find((candidate) => candidate.component === component
    && (candidate.side === 'both' || candidate.side === options.side)
    && candidate.from <= options.date && (candidate.to === undefined || options.date < candidate.to));
  return row?.rate ?? 0;
}

function validValue(input: EquityIntradayChargesInput): bigint {
  if (input.exchange !== 'NSE') throw new InvalidChargesInputError('exchange', `equity charges are scheduled for NSE, got ${JSON.stringify(input.exchange)}`);
  if (input.side !== 'buy' && input.side !== 'sell') throw new InvalidChargesInputError('side', `must be buy or sell, got ${JSON.stringify(input.side)}`);
  if (!Number.isSafeInteger(input.price) || input.price < 0) throw new InvalidChargesInputError('price', `must be a whole number of paise >= 0, got ${input.price}`);
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) throw new InvalidChargesInputError('quantity', `must be a whole number >= 1, got ${input.quantity}`);
  return BigInt(input.price) * BigInt(input.quantity);
}

/**
 * Charges on one intraday equity order on NSE, each component rounded once to the paisa half up,
 * STT to the rupee (per order: a contract note rounds it per scrip per day).
 * @example equityIntradayChargesFor({ date: '2024-10-15', exchange: 'NSE', side: 'sell', price: paise(50_000), quantity: 100 }).total // 3257 (Rs 32.57)
 */
export function equityIntradayChargesFor(input: EquityIntradayChargesInput): { components: ChargeComponents; total: Paise; turnover: Paise } {
  return equityChargesOn(EQUITY_INTRADAY_SCHEDULE, { input, defaultPlan: EQUITY_INTRADAY_BROKERAGE_PLAN });
}

/**
 * Charges on one cash-market order under `schedule` (intraday here, delivery in equity-delivery.ts):
 * each component rounded once to the paisa half up, STT to the rupee.
 */
export function equityChargesOn(
  schedule: readonly EquityIntradayRate[],
  request: { readonly input: EquityIntradayChargesInput; readonly defaultPlan: BrokeragePlan },
): { components: ChargeComponents; total: Paise; turnover: Paise } {
  const { input } = request;
  if (typeof input.date !== 'string' || !isIsoDate(input.date) || input.date < CHARGE_SCHEDULE_START) {
    throw new InvalidChargesInputError('date', `must be a date as YYYY-MM-DD on or after ${CHARGE_SCHEDULE_START}, got ${JSON.stringify(input.date)}`);
  }
  const value = validValue(input);
  const on = { date: input.date, side: input.side };
  const charge = (component: EquityChargeComponent): bigint => roundToPaisa(exactAmount(value, rateOn(schedule, component, on)));
  const brokerage = brokerageFor(input.brokerage ?? request.defaultPlan, value);
  const exchangeTransaction = charge('exchange-transaction');
  const sebiFee = charge('sebi-fee');
  const components: ChargeComponents = {
    brokerage: toPaise(brokerage),
    stt: toPaise(roundToRupee(exactAmount(value, rateOn(schedule, 'stt', on)))),
    exchangeTransaction: toPaise(exchangeTransaction),
    investorProtection: toPaise(charge('investor-protection')),
    sebiFee: toPaise(sebiFee),
    stampDuty: toPaise(charge('stamp-duty')),
    gst: toPaise(roundToPaisa(exactAmount(brokerage + exchangeTransaction + sebiFee, rateOn(schedule, 'gst', on)))),
  };
  const total = Object.values(components).reduce((sum: number, amount: number) => sum + amount, 0);
  return { components, total: paise(total), turnover: toPaise(value) };
}

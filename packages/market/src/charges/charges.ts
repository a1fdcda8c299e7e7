import type { Paise } from '@vyuha/core';
import { CHARGE_SCHEDULE, chargeRatesOn } from './charge-schedule';
import type { ChargeExchange, ChargeInstrument, ChargeScheduleRow, ScheduledChargeComponent } from './charge-schedule';
import { exactAmount, roundToPaisa, roundToRupee, toPaise } from './charge-math';
import { brokerageFor } from './brokerage';
import { normalizeChargesInput } from './charges-input';
import type { ChargesInput, NormalizedCharges } from './charges-input';
import { InvalidChargesInputError } from './charges-input-error';

/** Each charge in integer paise; `stt` is a whole number of rupees (in paise), as on a contract note. */
export interface ChargeComponents {
  readonly brokerage: Paise;
  readonly stt: Paise;
  readonly exchangeTransaction: Paise;
  readonly investorProtection: Paise;
  readonly sebiFee: Paise;
  readonly stampDuty: Paise;
  readonly gst: Paise;
}

/** The charges on one order or one day: components, their sum, the value traded and the rates applied. */
export interface ChargeBreakdown {
  readonly components: ChargeComponents;
  readonly total: Paise;
  /** Value the rates were applied to: premium (or contract value, or exercise value) x quantity, summed. */
  readonly turnover: Paise;
  /** The schedule rows that were applied, in schedule order, for display. */
  readonly rates: readonly ChargeScheduleRow[];
}

/** One executed order of a day, with the contract it traded (any stable key: a trading symbol, an instrument id). */
export interface DayTrade extends ChargesInput {
  readonly contract: string;
}

/** A day's charges, with the STT of each contract as rounded once for the day. */
export interface DayChargeBreakdown extends ChargeBreakdown {
  readonly sttByContract: ReadonlyArray<{ readonly contract: string; readonly exchange: ChargeExchange; readonly instrument: ChargeInstrument; readonly stt: Paise }>;
}

/** A component before rounding: numerators over 10^8 paise, except brokerage (already whole paise per order). */
interface ExactCharges {
  readonly exchange: ChargeExchange;
  readonly instrument: ChargeInstrument;
  readonly brokerage: bigint;
  readonly stt: bigint;
  readonly exchangeTransaction: bigint;
  readonly investorProtection: bigint;
  readonly sebiFee: bigint;
  readonly stampDuty: bigint;
  /** The GST rate (parts per 10^8) in force for this trade. */
  readonly gstRate: number;
  readonly turnover: bigint;
  readonly rates: readonly ChargeScheduleRow[];
}

type StatutoryField = 'stt' | 'exchangeTransaction' | 'investorProtection' | 'sebiFee' | 'stampDuty';

const FIELD_OF: Readonly<Record<Exclude<ScheduledChargeComponent, 'gst'>, StatutoryField>> = {
  'stt': 'stt',
  'exchange-transaction': 'exchangeTransaction',
  'investor-protection': 'investorProtection',
  'sebi-fee': 'sebiFee',
  'stamp-duty': 'stampDuty',
};

function exactCharges(trade: NormalizedCharges): ExactCharges {
  const amounts: Record<StatutoryField, bigint> = { stt: 0n, exchangeTransaction: 0n, investorProtection: 0n, sebiFee: 0n, stampDuty: 0n };
  const base = { exchange: trade.exchange, instrument: trade.instrument, turnover: trade.value };
  // A worthless expiry is no trade: no order, no tax, no fee.
  if (trade.event === 'expire-worthless') return { ...base, ...amounts, brokerage: 0n, gstRate: 0, rates: [] };
  const basis = trade.event === 'exercise' ? 'exercise-value' : 'traded-value';
  const inForce = chargeRatesOn(trade);
  const applied = inForce.filter((row) => row.basis === basis && (row.side === 'both' || row.side === trade.side));
  for (const row of applied) {
    if (row.component === 'gst') continue;
    amounts[FIELD_OF[row.component]] += exactAmount(trade.value, row.rate);
  }
  const gstRow = inForce.find((row) => row.basis === 'taxable-charges');
  return {
    ...base,
    ...amounts,
    brokerage: brokerageFor(trade.brokerage, trade.value),
    gstRate: gstRow?.rate ?? 0,
    rates: gstRow === undefined ? applied : [...applied, gstRow],
  };
}

/** Rounds a group's exact non-STT statutory charges once and adds GST on the rounded taxable ones. */
function roundGroup(group: readonly ExactCharges[]): Omit<Record<keyof ChargeComponents, bigint>, 'stt'> {
  const sum = (pick: (charges: ExactCharges) => bigint): bigint => group.reduce((total, charges) => total + pick(charges), 0n);
  const brokerage = sum((c) => c.brokerage);
  const exchangeTransaction = roundToPaisa(sum((c) => c.exchangeTransaction));
  const sebiFee = roundToPaisa(sum((c) => c.sebiFee));
  // One group shares date, exchange and instrument, hence one GST rate.
  const gstRate = group.reduce((rate, charges) => Math.max(rate, charges.gstRate), 0);
  return {
    brokerage,
    exchangeTransaction,
    investorProtection: roundToPaisa(sum((c) => c.investorProtection)),
    sebiFee,
    stampDuty: roundToPaisa(sum((c) => c.stampDuty)),
    gst: roundToPaisa(exactAmount(brokerage + exchangeTransaction + sebiFee, gstRate)),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): ReadonlyMap<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  }
  return groups;
}

function appliedRates(all: readonly ExactCharges[]): readonly ChargeScheduleRow[] {
  const used = new Set(all.flatMap((charges) => charges.rates));
  return CHARGE_SCHEDULE.filter((row) => used.has(row));
}

function breakdown(options: { parts: readonly ExactCharges[]; stt: bigint; others: ReturnType<typeof roundGroup>[] }): ChargeBreakdown {
  const total = (field: keyof ReturnType<typeof roundGroup>): bigint => options.others.reduce((sum, group) => sum + group[field], 0n);
  const components: ChargeComponents = {
    brokerage: toPaise(total('brokerage')),
    stt: toPaise(options.stt),
    exchangeTransaction: toPaise(total('exchangeTransaction')),
    investorProtection: toPaise(total('investorProtection')),
    sebiFee: toPaise(total('sebiFee')),
    stampDuty: toPaise(total('stampDuty')),
    gst: toPaise(total('gst')),
  };
  const sum = Object.values(components).reduce((acc: number, value: Paise) => acc + value, 0);
  return {
    components,
    total: toPaise(BigInt(sum)),
    turnover: toPaise(options.parts.reduce((acc, charges) => acc + charges.turnover, 0n)),
    rates: appliedRates(options.parts),
  };
}

/**
 * The charges on one executed order (or expiry settlement) with the rates in force on its date.
 * Each component is computed exactly and rounded once to the paisa, half up; GST is 18% of the
 * rounded brokerage + exchange transaction charge + SEBI fee. STT is rounded to the rupee: a
 * contract note rounds STT once on the day's total per contract (scrip), so rounding it per order
 * is this function's approximation; `chargesForDay` does it the contract note's way.
 * @example chargesFor({ date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 }).total // 3640 (Rs 36.40)
 */
export function chargesFor(input: ChargesInput): ChargeBreakdown {
  const exact = exactCharges(normalizeChargesInput(input));
  return breakdown({ parts: [exact], stt: roundToRupee(exact.stt), others: [roundGroup([exact])] });
}

/**
 * The charges on one day's orders as a contract note adds them up: brokerage per order, STT
 * summed per contract and rounded to the rupee once per contract, the other statutory charges
 * summed per exchange and instrument and rounded once, GST on those rounded sums. All trades
 * must share one date.
 */
export function chargesForDay(trades: readonly DayTrade[]): DayChargeBreakdown {
  const firstDate = trades[0]?.date;
  const exact = trades.map((trade, index) => {
    const path = `trades[${index}].`;
    if (typeof trade.contract !== 'string' || trade.contract.trim() === '') throw new InvalidChargesInputError(`${path}contract`, 'must name the contract traded');
    if (trade.date !== firstDate) throw new InvalidChargesInputError(`${path}date`, `all trades of a day share one date (${String(firstDate)}), got ${JSON.stringify(trade.date)}`);
    return { contract: trade.contract, charges: exactCharges(normalizeChargesInput(trade, path)) };
  });
  const byContract = groupBy(exact, (item) => `${item.charges.exchange}|${item.charges.instrument}|${item.contract}`);
  const sttByContract = [...byContract.values()].map((group) => {
    const first = group[0]!.charges;
    const stt = roundToRupee(group.reduce((sum, item) => sum + item.charges.stt, 0n));
    return { contract: group[0]!.contract, exchange: first.exchange, instrument: first.instrument, stt: toPaise(stt) };
  });
  const parts = exact.map((item) => item.charges);
  const bySegment = groupBy(parts, (charges) => `${charges.exchange}|${charges.instrument}`);
  const stt = sttByContract.reduce((sum, item) => sum + BigInt(item.stt), 0n);
  return { ...breakdown({ parts, stt, others: [...bySegment.values()].map(roundGroup) }), sttByContract };
}

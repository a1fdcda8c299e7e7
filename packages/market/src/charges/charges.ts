import { paise } from '@vyuha/core';
import type { IsoDate, Paise } from '@vyuha/core';
import { CHARGE_SCHEDULE, chargeRatesOn } from './charge-schedule';
import type { ChargeExchange, ChargeInstrument, ChargeScheduleRow, ScheduledChargeComponent } from './charge-schedule';
import { exactAmount, PAISA_ROUNDABLE, roundToPaisa, roundToPaisaNumber, roundToRupee, roundToRupeeNumber, RUPEE_ROUNDABLE, toPaise } from './charge-math';
import { brokerageFor, DEFAULT_BROKERAGE_PLAN } from './brokerage';
import type { BrokeragePlan } from './brokerage';
import { normalizeChargesInput, tradeFields } from './charges-input';
import type { ChargesInput, NormalizedCharges, TradeFields } from './charges-input';
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

/**
 * What one kind of order pays: the schedule rows for its date, exchange, instrument, side and
 * event. They depend on the date only through the rows in force, so they are looked up once per
 * kind and period of the schedule (`orderRates`), not per order: a backtest charges thousands of
 * fills, and the lookup and its arrays cost more than the arithmetic.
 */
interface OrderRates {
  /** The non-GST rows on the order's basis and side, each with the component it adds to. */
  readonly statutory: ReadonlyArray<{ readonly field: StatutoryField; readonly rate: number }>;
  /** The statutory rates summed per component (parts per 10^8): value x each is that component's exact amount, as the rows' amounts added. */
  readonly byField: Readonly<Record<StatutoryField, number>>;
  /** The GST rate (parts per 10^8) in force. */
  readonly gstRate: number;
  /** The rows applied, then the GST row. */
  readonly rates: readonly ChargeScheduleRow[];
  /** The same rows in schedule order: what one order's breakdown shows. */
  readonly shown: readonly ChargeScheduleRow[];
}

// A worthless expiry is no trade: no order, no tax, no fee.
const NO_RATES: OrderRates = Object.freeze({ statutory: Object.freeze([]), byField: ratesByField([]), gstRate: 0, rates: Object.freeze([]), shown: Object.freeze([]) });

function ratesByField(statutory: OrderRates['statutory']): OrderRates['byField'] {
  const byField: Record<StatutoryField, number> = { stt: 0, exchangeTransaction: 0, investorProtection: 0, sebiFee: 0, stampDuty: 0 };
  for (const row of statutory) byField[row.field] += row.rate;
  return Object.freeze(byField);
}

function appliedRates(rates: readonly ChargeScheduleRow[]): readonly ChargeScheduleRow[] {
  const used = new Set(rates);
  return CHARGE_SCHEDULE.filter((row) => used.has(row));
}

function ratesOf(trade: NormalizedCharges): OrderRates {
  if (trade.event === 'expire-worthless') return NO_RATES;
  const basis = trade.event === 'exercise' ? 'exercise-value' : 'traded-value';
  const inForce = chargeRatesOn(trade);
  const applied = inForce.filter((row) => row.basis === basis && (row.side === 'both' || row.side === trade.side));
  const statutory = applied.flatMap((row) => (row.component === 'gst' ? [] : [Object.freeze({ field: FIELD_OF[row.component], rate: row.rate })]));
  const gstRow = inForce.find((row) => row.basis === 'taxable-charges');
  const rates = gstRow === undefined ? applied : [...applied, gstRow];
  // Shared by every order of the kind: frozen, so no caller can change another's.
  return Object.freeze({ statutory: Object.freeze(statutory), byField: ratesByField(statutory), gstRate: gstRow?.rate ?? 0, rates: Object.freeze(rates), shown: Object.freeze(appliedRates(rates)) });
}

/** Where any row starts or stops applying, ascending: between two of these dates the rows in force do not change. */
const CHANGE_DATES: readonly string[] = [...new Set(CHARGE_SCHEDULE.flatMap((row) => (row.to === undefined ? [row.from] : [row.from, row.to])))].sort();

/** Period p is the dates from CHANGE_DATES[p - 1] (inclusive) to CHANGE_DATES[p] (exclusive). */
function periodOf(date: string): number {
  let period = 0;
  while (period < CHANGE_DATES.length && (CHANGE_DATES[period] as string) <= date) period += 1;
  return period;
}

const EVENT_SLOT: Readonly<Record<NormalizedCharges['event'], number>> = { 'trade': 0, 'exercise': 1, 'expire-worthless': 2 };
/** Kinds per period: 2 exchanges x 2 instruments x 2 sides x 3 events. */
const KINDS = 24;
/** Order rates by period and kind, filled as first asked; bounded by the schedule, not by the dates asked. */
const RATES_BY_PERIOD: Array<Array<OrderRates | undefined>> = Array.from({ length: CHANGE_DATES.length + 1 }, () => new Array<OrderRates | undefined>(KINDS).fill(undefined));

/** The cache's slot of one kind of order (period and kind), or undefined when not filled yet. */
function cachedRates(trade: Pick<NormalizedCharges, 'date' | 'exchange' | 'instrument' | 'side' | 'event'>): { kinds: Array<OrderRates | undefined>; kind: number } {
  const kinds = RATES_BY_PERIOD[periodOf(trade.date)] as Array<OrderRates | undefined>;
  const kind = ((trade.exchange === 'NSE' ? 0 : 4) + (trade.instrument === 'option' ? 0 : 2) + (trade.side === 'buy' ? 0 : 1)) * 3 + EVENT_SLOT[trade.event];
  return { kinds, kind };
}

function orderRates(trade: NormalizedCharges): OrderRates {
  const { kinds, kind } = cachedRates(trade);
  return (kinds[kind] ??= ratesOf(trade));
}

/** The period of the last date asked by `tradeRates`, and its rates per kind: fills come in runs of one date. */
let lastRatesDate = '';
let lastRatesKinds: Array<OrderRates | undefined> = [];

/** `orderRates` of a plain trade from its checked fields, with no object made once its kind is cached. */
function tradeRates(fields: TradeFields, input: ChargesInput): OrderRates {
  if (fields.date !== lastRatesDate) {
    lastRatesKinds = RATES_BY_PERIOD[periodOf(fields.date)] as Array<OrderRates | undefined>;
    lastRatesDate = fields.date;
  }
  const kind = ((fields.exchange === 'NSE' ? 0 : 4) + (input.instrument === 'option' ? 0 : 2) + (input.side === 'buy' ? 0 : 1)) * 3;
  const cached = lastRatesKinds[kind];
  if (cached !== undefined) return cached;
  return orderRates(normalizeChargesInput(input));
}

function exactCharges(trade: NormalizedCharges, rates: OrderRates = orderRates(trade)): ExactCharges {
  const amounts: Record<StatutoryField, bigint> = { stt: 0n, exchangeTransaction: 0n, investorProtection: 0n, sebiFee: 0n, stampDuty: 0n };
  const { statutory } = rates;
  for (let index = 0; index < statutory.length; index += 1) {
    const row = statutory[index] as OrderRates['statutory'][number];
    amounts[row.field] += exactAmount(trade.value, row.rate);
  }
  return {
    exchange: trade.exchange,
    instrument: trade.instrument,
    turnover: trade.value,
    stt: amounts.stt,
    exchangeTransaction: amounts.exchangeTransaction,
    investorProtection: amounts.investorProtection,
    sebiFee: amounts.sebiFee,
    stampDuty: amounts.stampDuty,
    brokerage: trade.event === 'expire-worthless' ? 0n : brokerageFor(trade.brokerage, trade.value),
    gstRate: rates.gstRate,
    rates: rates.rates,
  };
}

type RoundedCharges = Omit<Record<keyof ChargeComponents, bigint>, 'stt'>;

/** Rounds exact non-STT statutory charges (one order's, or a group's sums) once and adds GST on the rounded taxable ones. */
function rounded(exact: Omit<ExactCharges, 'exchange' | 'instrument' | 'stt' | 'turnover' | 'rates'>): RoundedCharges {
  const exchangeTransaction = roundToPaisa(exact.exchangeTransaction);
  const sebiFee = roundToPaisa(exact.sebiFee);
  return {
    brokerage: exact.brokerage,
    exchangeTransaction,
    investorProtection: roundToPaisa(exact.investorProtection),
    sebiFee,
    stampDuty: roundToPaisa(exact.stampDuty),
    gst: roundToPaisa(exactAmount(exact.brokerage + exchangeTransaction + sebiFee, exact.gstRate)),
  };
}

/** A group's exact charges summed, rounded once (`rounded`). */
function roundGroup(group: readonly ExactCharges[]): RoundedCharges {
  const sum = (pick: (charges: ExactCharges) => bigint): bigint => group.reduce((total, charges) => total + pick(charges), 0n);
  return rounded({
    brokerage: sum((c) => c.brokerage),
    exchangeTransaction: sum((c) => c.exchangeTransaction),
    investorProtection: sum((c) => c.investorProtection),
    sebiFee: sum((c) => c.sebiFee),
    stampDuty: sum((c) => c.stampDuty),
    // One group shares date, exchange and instrument, hence one GST rate.
    gstRate: group.reduce((rate, charges) => Math.max(rate, charges.gstRate), 0),
  });
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

function breakdown(options: { stt: bigint; others: RoundedCharges; turnover: bigint; rates: readonly ChargeScheduleRow[] }): ChargeBreakdown {
  const { others } = options;
  const components: ChargeComponents = {
    brokerage: toPaise(others.brokerage),
    stt: toPaise(options.stt),
    exchangeTransaction: toPaise(others.exchangeTransaction),
    investorProtection: toPaise(others.investorProtection),
    sebiFee: toPaise(others.sebiFee),
    stampDuty: toPaise(others.stampDuty),
    gst: toPaise(others.gst),
  };
  // Summed in component order.
  const sum = components.brokerage + components.stt + components.exchangeTransaction + components.investorProtection + components.sebiFee + components.stampDuty + components.gst;
  return { components, total: toPaise(BigInt(sum)), turnover: toPaise(options.turnover), rates: options.rates };
}

/**
 * The charges on one executed order (or expiry settlement) with the rates in force on its date.
 * Each component is computed exactly and rounded once to the paisa, half up; GST is 18% of the
 * rounded brokerage + exchange transaction charge + SEBI fee. STT is rounded to the rupee: a
 * contract note rounds STT once on the day's total per contract (scrip), so rounding it per order
 * is this function's approximation; `chargesForDay` does it the contract note's way. The result's
 * `rates` array is shared by every order of the same kind and period, and frozen.
 * @example chargesFor({ date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 }).total // 3640 (Rs 36.40)
 */
export function chargesFor(input: ChargesInput): ChargeBreakdown {
  // A plain trade of exact value (every fill of a backtest): checked and priced without a bigint or a normalized copy.
  if (tradeFields(input, FIELDS)) {
    const brokerage = brokerageInDoubles(input.brokerage ?? DEFAULT_BROKERAGE_PLAN, FIELDS.value);
    if (brokerage !== undefined) {
      const rates = tradeRates(FIELDS, input);
      if (doublesInto(priced(FIELDS.value, brokerage), rates, SCRATCH)) return breakdownOfScratch(FIELDS.value, rates);
    }
  }
  const trade = normalizeChargesInput(input);
  const rates = orderRates(trade);
  if (doublesInto(priced(Number(trade.value), trade.event === 'expire-worthless' ? 0 : Number(brokerageFor(trade.brokerage, trade.value))), rates, SCRATCH)) {
    return breakdownOfScratch(Number(trade.value), rates);
  }
  const exact = exactCharges(trade, rates);
  return breakdown({ stt: roundToRupee(exact.stt), others: rounded(exact), turnover: exact.turnover, rates: rates.shown });
}

const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** A trade's charges written in place (tradeChargesInto): the components and their total, in paise. */
export interface ChargesScratch {
  readonly components: { -readonly [K in keyof ChargeComponents]: Paise };
  total: Paise;
}

/** A scratch with every component 0. @example tradeChargesInto(order, emptyChargesScratch()) */
export function emptyChargesScratch(): ChargesScratch {
  const zero = paise(0);
  return { components: { brokerage: zero, stt: zero, exchangeTransaction: zero, investorProtection: zero, sebiFee: zero, stampDuty: zero, gst: zero }, total: zero };
}

/** chargesFor's own scratch (one call at a time: nothing here awaits). */
const SCRATCH = emptyChargesScratch();

/** doublesInto's order: its value and brokerage in paise (reused, as SCRATCH). */
const PRICED = { value: 0, brokerage: 0 };

function priced(value: number, brokerage: number): { readonly value: number; readonly brokerage: number } {
  PRICED.value = value;
  PRICED.brokerage = brokerage;
  return PRICED;
}

/**
 * `chargesFor(input)`'s components and total written into `out` instead of new objects, for a
 * plain trade (no `event`, or `trade`) whose charges compute in doubles: a backtest charges every
 * fill and keeps only the numbers. False, and `out` unchanged, for anything else (an exercise, a
 * bad input, an order so large it needs bigint arithmetic): call chargesFor then, which also
 * names a bad field.
 * @example tradeChargesInto({ date: '2024-10-15', exchange: 'NSE', instrument: 'option', side: 'sell', price: paise(12_050), quantity: 75 }, out) && out.total // 3640
 */
export function tradeChargesInto(input: ChargesInput, out: ChargesScratch): boolean {
  if (!tradeFields(input, FIELDS)) return false;
  const brokerage = brokerageInDoubles(input.brokerage ?? DEFAULT_BROKERAGE_PLAN, FIELDS.value);
  return brokerage !== undefined && doublesInto(priced(FIELDS.value, brokerage), tradeRates(FIELDS, input), out);
}

/** chargesFor's scratch for `tradeFields` (one call at a time: nothing here awaits). */
const FIELDS: { date: IsoDate; exchange: ChargeExchange; value: number } = { date: '1970-01-01' as IsoDate, exchange: 'NSE', value: 0 };

/**
 * The brokerage in paise on an order of `value` paise: a valid flat amount as it is, a percentage
 * plan by brokerageFor (which refuses a bad one); undefined for a bad flat amount (brokerageFor refuses it on the full path).
 */
function brokerageInDoubles(plan: BrokeragePlan, value: number): number | undefined {
  if (plan.kind !== 'flat') return Number(brokerageFor(plan, BigInt(value)));
  const perOrder = plan.perOrder;
  return Number.isSafeInteger(perOrder) && perOrder >= 0 ? perOrder : undefined;
}

/**
 * One order's charges (its value and brokerage in paise) as `chargesFor`'s bigint arithmetic
 * gives them, computed in doubles into `out`: a backtest charges every fill, and each bigint step
 * allocates. Doubles hold every whole number up to Number.MAX_SAFE_INTEGER exactly, so while each
 * product, sum and rounding stays within that (checked at every step) the result is the same to
 * the paisa; otherwise false, `out` unchanged, and the caller computes in bigint (an order of
 * about Rs 90 crore x an STT rate and beyond). `charges-doubles.test.ts` compares the two on
 * random and boundary orders.
 */
function doublesInto(order: { readonly value: number; readonly brokerage: number }, rates: OrderRates, out: ChargesScratch): boolean {
  const { value, brokerage } = order;
  // Whole rates times a whole value: each product is exact up to MAX_EXACT (and beyond it rounds
  // to beyond it), and a component's rows add up to value x their summed rate exactly.
  const { byField } = rates;
  const stt = value * byField.stt;
  const exchangeTransaction = value * byField.exchangeTransaction;
  const investorProtection = value * byField.investorProtection;
  const sebiFee = value * byField.sebiFee;
  const stampDuty = value * byField.stampDuty;
  // Each product, and each product plus the half it is rounded with, within MAX_EXACT.
  if (stt > RUPEE_ROUNDABLE || exchangeTransaction > PAISA_ROUNDABLE || investorProtection > PAISA_ROUNDABLE || sebiFee > PAISA_ROUNDABLE || stampDuty > PAISA_ROUNDABLE) return false;
  const exchangeRounded = roundToPaisaNumber(exchangeTransaction);
  const sebiRounded = roundToPaisaNumber(sebiFee);
  const protection = roundToPaisaNumber(investorProtection);
  const stamp = roundToPaisaNumber(stampDuty);
  const sttRounded = roundToRupeeNumber(stt);
  const taxable = brokerage + exchangeRounded + sebiRounded;
  const gstAmount = taxable * rates.gstRate;
  if (taxable > MAX_EXACT || gstAmount > PAISA_ROUNDABLE) return false;
  const gst = roundToPaisaNumber(gstAmount);
  // Summed in component order, as breakdown().
  const total = brokerage + sttRounded + exchangeRounded + protection + sebiRounded + stamp + gst;
  if (total > MAX_EXACT) return false;
  // Each is whole and within MAX_EXACT (checked above), so paise() would only turn -0 into 0, as
  // adding 0 does. Not called: where V8 did not inline it (this function is at the end of a long
  // chain of inlined calls), each double it returned was a new heap number, up to four a fill.
  const components = out.components;
  components.brokerage = (brokerage + 0) as Paise;
  components.stt = (sttRounded + 0) as Paise;
  components.exchangeTransaction = (exchangeRounded + 0) as Paise;
  components.investorProtection = (protection + 0) as Paise;
  components.sebiFee = (sebiRounded + 0) as Paise;
  components.stampDuty = (stamp + 0) as Paise;
  components.gst = (gst + 0) as Paise;
  out.total = (total + 0) as Paise;
  return true;
}

/** The breakdown of an order of `value` paise whose charges are in SCRATCH. */
function breakdownOfScratch(value: number, rates: OrderRates): ChargeBreakdown {
  const { brokerage, stt, exchangeTransaction, investorProtection, sebiFee, stampDuty, gst } = SCRATCH.components;
  return { components: { brokerage, stt, exchangeTransaction, investorProtection, sebiFee, stampDuty, gst }, total: SCRATCH.total, turnover: paise(value), rates: rates.shown };
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
  const groups = [...bySegment.values()].map(roundGroup);
  const total = (field: keyof RoundedCharges): bigint => groups.reduce((sum, group) => sum + group[field], 0n);
  const others = { brokerage: total('brokerage'), exchangeTransaction: total('exchangeTransaction'), investorProtection: total('investorProtection'), sebiFee: total('sebiFee'), stampDuty: total('stampDuty'), gst: total('gst') };
  const turnover = parts.reduce((sum, charges) => sum + charges.turnover, 0n);
  return { ...breakdown({ stt, others, turnover, rates: appliedRates(parts.flatMap((charges) => charges.rates)) }), sttByContract };
}

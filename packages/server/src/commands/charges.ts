import { formatRupees, istDate, paise, paiseToRupeesText, rupeesToPaise } from '@vyuha/core';
import type { Paise } from '@vyuha/core';
import { chargesFor, DEFAULT_BROKERAGE_PLAN, InvalidChargesInputError, ratePercentText } from '@vyuha/market';
import type { BrokeragePlan, ChargeBreakdown, ChargeComponents, ChargeScheduleRow, ChargesInput } from '@vyuha/market';
import { numberOption, parseOptions, print, requireOption, UsageError, type CliCommand } from './command';

const USAGE = `Usage: vyuha charges --exchange NSE|BSE --instrument option|future --side buy|sell
                     --premium <rupees> --quantity <units> [--date YYYY-MM-DD]
                     [--brokerage <rupees>] [--brokerage-percent <percent>]
                     [--event trade|exercise|expire-worthless] [--settlement <rupees>] [--json]

Prints the charges on one executed order with the rates in force on --date (default: today in
India): brokerage, STT, exchange transaction charge, investor protection fund, SEBI fee, stamp
duty and GST, each in rupees, and their total.

  --exchange           NSE or BSE (NFO and BFO are accepted for their F&O segments)
  --premium            price per unit in rupees, at most 2 decimals (the future's price for futures);
                       not needed with --event exercise or expire-worthless
  --quantity           units traded (lots x lot size)
  --brokerage          flat brokerage per order in rupees (default 20); with --brokerage-percent, the cap
  --brokerage-percent  brokerage as a percentage of the order value, capped at --brokerage
  --event              exercise: a long option exercised at expiry (side sell) or the assigned short
                       (side buy), priced on --settlement, the option's settlement price per unit;
                       expire-worthless: an option that expired out of the money
  --json               paise as integers and rupees as strings, for scripts

STT is rounded to the rupee per order here; a contract note rounds it once per contract per day.
`;

const OPTIONS = {
  'exchange': { type: 'string' },
  'instrument': { type: 'string' },
  'side': { type: 'string' },
  'premium': { type: 'string' },
  'quantity': { type: 'string' },
  'date': { type: 'string' },
  'brokerage': { type: 'string' },
  'brokerage-percent': { type: 'string' },
  'event': { type: 'string' },
  'settlement': { type: 'string' },
  'json': { type: 'boolean' },
} as const;

/** Which option a charges field came from, so a refusal names what the user typed. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  'date': 'date', 'exchange': 'exchange', 'instrument': 'instrument', 'side': 'side', 'price': 'premium', 'quantity': 'quantity',
  'event': 'event', 'settlementPrice': 'settlement', 'brokerage.perOrder': 'brokerage', 'brokerage.cap': 'brokerage',
  'brokerage.percent': 'brokerage-percent',
};

const LABELS: ReadonlyArray<readonly [keyof ChargeComponents, string, ChargeScheduleRow['component'] | undefined]> = [
  ['brokerage', 'Brokerage', undefined],
  ['stt', 'STT', 'stt'],
  ['exchangeTransaction', 'Exchange transaction charge', 'exchange-transaction'],
  ['investorProtection', 'Investor protection fund', 'investor-protection'],
  ['sebiFee', 'SEBI turnover fee', 'sebi-fee'],
  ['stampDuty', 'Stamp duty', 'stamp-duty'],
  ['gst', 'GST', 'gst'],
];

type Values = Record<string, string | boolean | undefined>;

/** Rupees as typed (`120.5`, `20`), at most 2 decimals, to paise (read as decimal text: no binary fraction creeps in). */
function rupeesOption(values: Values, name: string): Paise {
  const text = requireOption(values, name);
  if (!/^\d{1,13}(?:\.\d{1,2})?$/.test(text)) throw new UsageError(`--${name} must be rupees with at most 2 decimals, got "${text}"`);
  return rupeesToPaise(text);
}

function quantityOption(values: Values): number {
  const quantity = numberOption(values, 'quantity');
  if (!Number.isSafeInteger(quantity) || quantity <= 0) {
    throw new UsageError(`--quantity must be a whole number of units above 0, got "${String(values.quantity)}"`);
  }
  return quantity;
}

function brokeragePlan(values: Values): BrokeragePlan {
  const amount = values.brokerage === undefined ? paise(2_000) : rupeesOption(values, 'brokerage');
  if (values['brokerage-percent'] === undefined) return { kind: 'flat', perOrder: amount };
  return { kind: 'percentage', percent: numberOption(values, 'brokerage-percent'), cap: amount };
}

function chargesInput(values: Values): ChargesInput {
  // An expiry settlement trades nothing, so it needs no premium.
  const settling = values.event === 'exercise' || values.event === 'expire-worthless';
  const premium = settling && values.premium === undefined ? paise(0) : rupeesOption(values, 'premium');
  if (premium <= 0 && !settling) throw new UsageError(`--premium must be above 0, got "${String(values.premium)}"`);
  const settlement = values.settlement === undefined ? {} : { settlementPrice: rupeesOption(values, 'settlement') };
  return {
    date: typeof values.date === 'string' ? values.date : istDate(Date.now()),
    exchange: requireOption(values, 'exchange').toUpperCase() as ChargesInput['exchange'],
    instrument: requireOption(values, 'instrument') as ChargesInput['instrument'],
    side: requireOption(values, 'side') as ChargesInput['side'],
    price: premium,
    quantity: quantityOption(values),
    brokerage: brokeragePlan(values),
    ...(typeof values.event === 'string' ? { event: values.event as NonNullable<ChargesInput['event']> } : {}),
    ...settlement,
  };
}

function rateText(rates: readonly ChargeScheduleRow[], component: ChargeScheduleRow['component'] | undefined, plan: BrokeragePlan): string {
  if (component === undefined) {
    return plan.kind === 'flat' ? `${formatRupees(plan.perOrder)} per order` : `${plan.percent}% up to ${formatRupees(plan.cap)} per order`;
  }
  const basisText = { 'traded-value': 'of value', 'exercise-value': 'of exercise value', 'taxable-charges': 'of brokerage + exchange charge + SEBI fee' } as const;
  return rates.filter((row) => row.component === component).map((row) => `${ratePercentText(row.rate)} ${basisText[row.basis]}`).join(', ');
}

function textReport(input: ChargesInput, result: ChargeBreakdown): string {
  const plan = input.brokerage ?? DEFAULT_BROKERAGE_PLAN;
  const rows = LABELS.map(([key, label, component]) => [label, formatRupees(result.components[key]), rateText(result.rates, component, plan)] as const);
  const labelWidth = Math.max(...rows.map(([label]) => label.length), 'Total'.length);
  const amountWidth = Math.max(...rows.map(([, amount]) => amount.length), formatRupees(result.total).length);
  const line = (label: string, amount: string, note = ''): string => `  ${label.padEnd(labelWidth)}  ${amount.padStart(amountWidth)}  ${note}`.trimEnd();
  const what = input.event === 'exercise' ? ` (exercise): ${input.quantity} units settled at ${formatRupees(input.settlementPrice ?? 0)}`
    : input.event === 'expire-worthless' ? ` (expired worthless): ${input.quantity} units` : `: ${input.quantity} units at ${formatRupees(input.price)}`;
  return [
    `Charges on ${input.exchange} ${input.instrument} ${input.side}${what} on ${input.date}`,
    `Turnover ${formatRupees(result.turnover)}`,
    ...rows.map(([label, amount, note]) => line(label, amount, note)),
    line('Total', formatRupees(result.total)),
  ].join('\n');
}

function jsonReport(input: ChargesInput, result: ChargeBreakdown): string {
  const money = (amount: number) => ({ paise: amount, rupees: paiseToRupeesText(amount) });
  const components = Object.fromEntries(LABELS.map(([key]) => [key, money(result.components[key])]));
  return JSON.stringify({
    date: input.date, exchange: input.exchange, instrument: input.instrument, side: input.side, event: input.event ?? 'trade',
    quantity: input.quantity, price: money(input.price), turnover: money(result.turnover), components, total: money(result.total),
    rates: result.rates.map((row) => ({ component: row.component, rate: ratePercentText(row.rate), basis: row.basis, side: row.side, from: row.from, to: row.to ?? null })),
  }, null, 2);
}

async function runCharges(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, OPTIONS);
  const input = chargesInput(values);
  let result: ChargeBreakdown;
  try {
    result = chargesFor(input);
  } catch (error) {
    if (!(error instanceof InvalidChargesInputError)) throw error;
    const option = OPTION_OF_FIELD[error.field] ?? error.field;
    throw new UsageError(`--${option} ${error.message.slice(error.field.length + 2)}`);
  }
  print(values.json === true ? jsonReport(input, result) : textReport(input, result));
  return 0;
}

export const chargesCommand: CliCommand = {
  name: 'charges',
  usage: USAGE,
  run: runCharges,
};

// The trade list of a backtest run: every order with each of its fills and the fill's charge
// components (fills.charges_paise as the worker writes it), the totals per component, and how
// those totals reconcile with the run's own charges (metrics.chargesPaid).
import { parseTimestamp } from '../../../../format/format';

/** A fill as the GraphQL `fills` table returns it (bigint paise arrive as numbers or strings). */
export interface FillRecord {
  readonly fill_id: string;
  readonly trade_id: string;
  readonly quantity: number;
  readonly price_paise: number | string;
  readonly charges_paise: Readonly<Record<string, unknown>>;
  readonly ts: string;
}

export interface InstrumentRecord {
  readonly trading_symbol: string;
  readonly kind: string;
  readonly expiry: string | null;
  readonly strike_paise: number | string | null;
  readonly option_type: string | null;
}

/** An order with its fills, as the trade-list query selects it. */
export interface OrderRecord {
  readonly order_id: string;
  readonly client_order_id: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly filled_quantity: number;
  readonly status: string;
  readonly status_message: string | null;
  readonly tag: string | null;
  readonly average_price_paise: number | string | null;
  readonly created_at: string;
  readonly instrument: InstrumentRecord | null;
  readonly fills: readonly FillRecord[];
}

/** The charge components the worker stores, in the order a contract note lists them. */
export const CHARGE_COMPONENTS: ReadonlyArray<readonly [key: string, label: string]> = [
  ['brokerage', 'Brokerage'], ['stt', 'STT'], ['exchange', 'Exchange'], ['investor_protection', 'IPF'],
  ['sebi', 'SEBI'], ['stamp', 'Stamp'], ['gst', 'GST'],
];

/** One line of the trade list: a fill, or an order that has none (cancelled, or settled at 0). */
export interface TradeRow {
  readonly key: string;
  /** The order's number within the run (the suffix of its client order id), for display and order. */
  readonly sequence: number;
  readonly clientOrderId: string;
  readonly placedAtMs: number;
  readonly instrument: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderQuantity: number;
  readonly status: string;
  readonly tag: string;
  readonly statusMessage: string | null;
  /** Undefined for an order without a fill. */
  readonly fill: {
    readonly tradeId: string;
    readonly timeMs: number;
    readonly quantity: number;
    readonly pricePaise: number;
    /** Price x quantity, paise. */
    readonly valuePaise: number;
  } | undefined;
  /** Charge components of the fill, paise (empty without a fill). */
  readonly charges: Readonly<Record<string, number>>;
  readonly chargesPaise: number;
}

function whole(value: number | string | null | undefined): number {
  const number = typeof value === 'string' ? Number(value) : value ?? Number.NaN;
  return Number.isFinite(number) ? number : 0;
}

function sequenceOf(clientOrderId: string): number {
  const match = /-(\d+)$/.exec(clientOrderId);
  return match === null ? Number.NaN : Number(match[1]);
}

function chargesOf(raw: Readonly<Record<string, unknown>>): Record<string, number> {
  const charges: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'number' && Number.isFinite(value)) charges[key] = value;
  return charges;
}

const sum = (values: Iterable<number>): number => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

/**
 * Rows in the order the run placed them: one per fill, one for an order without fills.
 * @example tradeRows([{ client_order_id: 'bt1-2', fills: [fill] }, { client_order_id: 'bt1-10', fills: [] }]).map((r) => r.sequence) // [2, 10]
 */
export function tradeRows(orders: readonly OrderRecord[]): TradeRow[] {
  const rows: TradeRow[] = [];
  for (const order of orders) {
    const common = {
      sequence: sequenceOf(order.client_order_id), clientOrderId: order.client_order_id,
      placedAtMs: parseTimestamp(order.created_at) ?? Number.NaN, instrument: order.instrument?.trading_symbol ?? '?',
      side: order.side, orderQuantity: order.quantity, status: order.status, tag: order.tag ?? '', statusMessage: order.status_message,
    };
    if (order.fills.length === 0) {
      rows.push({ ...common, key: order.order_id, fill: undefined, charges: {}, chargesPaise: 0 });
      continue;
    }
    const fills = [...order.fills].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    for (const fill of fills) {
      const charges = chargesOf(fill.charges_paise);
      const pricePaise = whole(fill.price_paise);
      rows.push({
        ...common, key: fill.fill_id,
        fill: { tradeId: fill.trade_id, timeMs: parseTimestamp(fill.ts) ?? Number.NaN, quantity: fill.quantity, pricePaise, valuePaise: pricePaise * fill.quantity },
        charges, chargesPaise: sum(Object.values(charges)),
      });
    }
  }
  return rows.sort((a, b) => a.sequence - b.sequence || a.placedAtMs - b.placedAtMs || (a.key < b.key ? -1 : 1));
}

export interface ChargeTotals {
  /** Paise per component, every component that any fill carries (known ones first, in contract-note order). */
  readonly components: ReadonlyArray<readonly [key: string, label: string, paise: number]>;
  readonly totalPaise: number;
  readonly fills: number;
  readonly orders: number;
  readonly buyValuePaise: number;
  readonly sellValuePaise: number;
}

/** Totals of the trade list. @example chargeTotals(rows).components[0] // ['brokerage', 'Brokerage', 4000] */
export function chargeTotals(rows: readonly TradeRow[]): ChargeTotals {
  const byKey = new Map<string, number>();
  let buyValuePaise = 0;
  let sellValuePaise = 0;
  for (const row of rows) {
    for (const [key, paise] of Object.entries(row.charges)) byKey.set(key, (byKey.get(key) ?? 0) + paise);
    if (row.fill !== undefined) {
      if (row.side === 'BUY') buyValuePaise += row.fill.valuePaise;
      else sellValuePaise += row.fill.valuePaise;
    }
  }
  const known = new Set(CHARGE_COMPONENTS.map(([key]) => key));
  const components = [
    ...CHARGE_COMPONENTS.filter(([key]) => byKey.has(key)).map(([key, label]) => [key, label, byKey.get(key) as number] as const),
    ...[...byKey.keys()].filter((key) => !known.has(key)).sort().map((key) => [key, key, byKey.get(key) as number] as const),
  ];
  return {
    components, totalPaise: sum(byKey.values()), fills: rows.filter((row) => row.fill !== undefined).length,
    orders: new Set(rows.map((row) => row.clientOrderId)).size, buyValuePaise, sellValuePaise,
  };
}

export interface Reconciliation {
  readonly listedPaise: number;
  readonly runPaise: number | undefined;
  /** listed - run; 0 when they agree, undefined when the run reports no charges. */
  readonly differencePaise: number | undefined;
}

/** Compares the trade list's charge total with the run's (metrics.chargesPaid). */
export function reconcileCharges(totals: ChargeTotals, runChargesPaise: number | undefined): Reconciliation {
  return {
    listedPaise: totals.totalPaise, runPaise: runChargesPaise,
    differencePaise: runChargesPaise === undefined ? undefined : totals.totalPaise - runChargesPaise,
  };
}

/** Charges per IST trading date of the fills (for the daily rows the engine's special-day and return helpers take). */
export function chargesByDate(rows: readonly TradeRow[], dateOf: (epochMs: number) => string): Map<string, number> {
  const byDate = new Map<string, number>();
  for (const row of rows) {
    if (row.fill === undefined) continue;
    const date = dateOf(row.fill.timeMs);
    byDate.set(date, (byDate.get(date) ?? 0) + row.chargesPaise);
  }
  return byDate;
}

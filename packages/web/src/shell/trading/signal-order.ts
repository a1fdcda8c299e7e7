// What a MANUAL strategy's pending signal will do if accepted, in words for the queue: the
// action, the instrument, the price at the signal and the quantity its sizing trades. Read from
// the row's payload (docs/DATA-MODEL.md, pending_signals.payload: action, instrument, bar,
// barTime, closePaise) and the strategy's deployable config (sizing, investment, legs).
import { formatRupees } from '../../format/format';

export type SignalAction = 'BUY' | 'SELL' | 'EXIT';

export interface SignalOrder {
  /** undefined when the payload names no action we know (then the row cannot be accepted blindly). */
  readonly action: SignalAction | undefined;
  readonly instrument: string;
  /** The signal instrument's close at the bar that raised it, as rupees; a dash when missing. */
  readonly price: string;
  readonly quantity: string;
  /** Epoch ms of the bar whose close raised it, when given. */
  readonly barMs: number | undefined;
}

const ACTIONS: ReadonlySet<string> = new Set(['BUY', 'SELL', 'EXIT']);

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The quantity the config's sizing trades on an entry, in words.
 * @example sizingText({ sizing: { kind: 'lots', lots: 2, lotSize: 75 } }) // '2 lots × 75 = 150 units'
 */
export function sizingText(configValue: unknown): string {
  const config = record(configValue);
  if (config.legs !== null && config.legs !== undefined) return "the strategy's option legs";
  const sizing = record(config.sizing);
  const investment = whole(config.investment);
  const capital = investment === undefined ? 'the investment' : formatRupees(investment);
  switch (sizing.kind) {
    case 'quantity': {
      const quantity = whole(sizing.quantity);
      return quantity === undefined ? 'a fixed quantity' : `${quantity} ${quantity === 1 ? 'unit' : 'units'}`;
    }
    case 'lots': {
      const lots = whole(sizing.lots);
      const lotSize = whole(sizing.lotSize);
      if (lots === undefined || lotSize === undefined) return 'a number of lots';
      return `${lots} ${lots === 1 ? 'lot' : 'lots'} × ${lotSize} = ${lots * lotSize} units`;
    }
    case 'percent': {
      const share = positive(sizing.percent);
      return share === undefined ? `a share of ${capital}` : `${share}% of ${capital}, sized at the fill price`;
    }
    case 'all-in':
      return `as many as ${capital} buys at the fill price`;
    default:
      return 'as the strategy sizes it';
  }
}

/**
 * The order a pending signal stands for.
 * @example signalOrder({ action: 'BUY', instrument: 'NIFTY 50', closePaise: 2_450_000 }, { sizing: { kind: 'quantity', quantity: 50 } })
 * // { action: 'BUY', instrument: 'NIFTY 50', price: '₹24,500.00', quantity: '50 units', barMs: undefined }
 */
export function signalOrder(payloadValue: unknown, configValue: unknown): SignalOrder {
  const payload = record(payloadValue);
  const action = typeof payload.action === 'string' && ACTIONS.has(payload.action) ? (payload.action as SignalAction) : undefined;
  const instrument = typeof payload.instrument === 'string' && payload.instrument !== '' ? payload.instrument : '—';
  const close = whole(payload.closePaise);
  return {
    action,
    instrument,
    price: close === undefined ? '—' : formatRupees(close),
    // An exit closes what is open, whatever the sizing says.
    quantity: action === 'EXIT' ? 'the whole open position' : sizingText(configValue),
    barMs: whole(payload.bar),
  };
}

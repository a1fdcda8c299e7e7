// Turning the user's open trading positions into payoff legs (issue 18, /payoff source "live
// positions"): the positions table's rows of PAPER and LIVE runs only (a backtest's positions are
// history, never something the user holds), option and futures contracts on the chosen index,
// not flat. The entry price is the exact average of the open units: open cost / open units.
import type { PayoffPosition } from '@vyuha/engine';

/** The run kinds whose positions are held now. */
export const HELD_RUN_KINDS = ['PAPER', 'LIVE'] as const;

/** One `positions` row with its instrument and run, as the live-positions subscription selects it. */
export interface LivePositionRow {
  readonly run_id: string;
  readonly instrument_id: number;
  readonly net_quantity: number;
  /** bigint paise; may arrive as text. */
  readonly open_cost_paise: number | string;
  readonly instrument: {
    readonly trading_symbol: string;
    readonly kind: string;
    readonly expiry: string | null;
    readonly strike_paise: number | string | null;
    readonly option_type: string | null;
  };
  readonly run: { readonly kind: string };
}

/** Why a row was left out, for the screen to say. */
export interface SkippedPosition {
  readonly tradingSymbol: string;
  readonly reason: string;
}

export interface LiveLegs {
  readonly positions: PayoffPosition[];
  readonly skipped: SkippedPosition[];
}

/**
 * The open option and futures positions of PAPER and LIVE runs as payoff positions of `indice`.
 * Each run's holding is its own leg (two strategies short the same strike are two legs).
 * @example livePositionLegs([shortCe65At120], { indice: 'NIFTY 50', timestamp }).positions[0].quantity // -65
 */
export function livePositionLegs(rows: readonly LivePositionRow[], options: { readonly indice: string; readonly timestamp: number }): LiveLegs {
  const positions: PayoffPosition[] = [];
  const skipped: SkippedPosition[] = [];
  for (const row of rows) {
    if (!(HELD_RUN_KINDS as readonly string[]).includes(row.run.kind) || row.net_quantity === 0) continue;
    const { instrument } = row;
    const skip = (reason: string): void => { skipped.push({ tradingSymbol: instrument.trading_symbol, reason }); };
    const openCost = Number(row.open_cost_paise);
    if (instrument.expiry === null) { skip('it has no expiry'); continue; }
    if (!Number.isFinite(openCost) || openCost < 0) { skip('its open cost cannot be read'); continue; }
    const base = {
      indice: options.indice, expiry: instrument.expiry.slice(0, 10), quantity: row.net_quantity,
      entryPrice: openCost / Math.abs(row.net_quantity) / 100, timestamp: options.timestamp,
    };
    if (instrument.kind === 'future') {
      positions.push({ kind: 'future', ...base });
      continue;
    }
    if (instrument.kind !== 'option') { skip(`a ${instrument.kind} has no payoff at an expiry`); continue; }
    const strike = Number(instrument.strike_paise) / 100;
    if (!(strike > 0) || (instrument.option_type !== 'CE' && instrument.option_type !== 'PE')) { skip('its strike or option type is missing'); continue; }
    positions.push({ kind: 'option', optionType: instrument.option_type, strike, ...base });
  }
  return { positions, skipped };
}

/** The distinct expiries among positions of `indice`, ascending. */
export function expiriesOf(positions: readonly PayoffPosition[], indice: string): string[] {
  return [...new Set(positions.filter((position) => position.indice === indice).map((position) => position.expiry))].sort();
}

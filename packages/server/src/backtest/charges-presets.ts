// The named charge schedules a user can pick (the CLI's --charges): each one a ChargesConfig of
// the engine (the market package's dated schedule for that kind of trade).
import type { ChargesConfig } from '@vyuha/engine';

/** --charges names and the charge schedules they select. */
export const CHARGES: Readonly<Record<string, ChargesConfig>> = {
  'none': { kind: 'none' },
  'nse-options': { kind: 'schedule', exchange: 'NSE', instrument: 'option' },
  'nse-futures': { kind: 'schedule', exchange: 'NSE', instrument: 'future' },
  'nse-equity-intraday': { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' },
  'nse-equity-delivery': { kind: 'schedule', exchange: 'NSE', instrument: 'equity-delivery' },
};

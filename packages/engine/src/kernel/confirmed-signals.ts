// MANUAL mode: a person confirms each of the strategy's signals before it trades. The program
// still runs at every bar's close (indicators advance as always); a signal that would change the
// position is handed to the gate (the runtime writes it as a pending signal) instead of to the
// trader, and the trader acts, at a bar's close, only on a signal the gate says was confirmed by
// then: with `fill: 'next-open'` it fills at the next bar's open, as any signal does.
//
// What stays automatic: stops, targets, the trailing stop, the intraday square-off and the daily
// limits are the kernel's and the trader's, not signals, so they never wait for a person.
//
// Determinism: the gate answers `confirmedAt(index)` from what it recorded (which bar took which
// confirmed signal), so a run played again after a restart acts at the same bars.
import { SIGNAL_BUY, SIGNAL_EXIT, SIGNAL_SELL } from '../algorithm/program';
import type { PositionContext, Signal, SignalProgram } from '../algorithm/program';

/** Where the runtime keeps a MANUAL strategy's signals. */
export interface SignalGate {
  /** Bars before this index are warm-up: their signals are nobody's to confirm. */
  readonly signalsFrom: number;
  /** Which sides may be opened (the trader's `direction`): a signal that could open nothing is not raised. */
  readonly direction: 'long-only' | 'short-only' | 'both';
  /** The program's signal at bar `index`'s close would change the position: to be confirmed. */
  raise(index: number, signal: Signal): void;
  /** The confirmed signal to act on at bar `index`'s close, or NONE. */
  confirmedAt(index: number): Signal;
}

/**
 * Whether the trader would act on `signal` with the position's sign `held`: an exit of what is
 * held, or an entry on an allowed side (a reversal included).
 * @example wouldAct(SIGNAL_SELL, 0, 'long-only') // false: a long-only strategy opens no short
 */
export function wouldAct(signal: Signal, held: number, direction: SignalGate['direction']): boolean {
  if (signal === SIGNAL_EXIT) return held !== 0;
  if (signal === SIGNAL_BUY) return held < 0 || (held === 0 && direction !== 'short-only');
  if (signal === SIGNAL_SELL) return held > 0 || (held === 0 && direction !== 'long-only');
  return false;
}

/** A program whose signals pass through a gate: the program a MANUAL strategy's kernel runs. */
export class ConfirmedSignals implements SignalProgram {
  readonly warmup: number;

  constructor(private readonly inner: SignalProgram, private readonly gate: SignalGate) {
    this.warmup = inner.warmup;
  }

  onBar(index: number, position: PositionContext): Signal {
    const signal = this.inner.onBar(index, position);
    if (index < this.gate.signalsFrom) return signal;
    if (wouldAct(signal, position.position, this.gate.direction)) this.gate.raise(index, signal);
    return this.gate.confirmedAt(index);
  }
}

// Test support: the operations of the OMS model test as fast-check values, and how each one drives
// the harness (oms-harness.test-support.ts). Shared by the model test and reconcile's property test.
import fc from 'fast-check';
import { OmsHarness } from './oms-harness.test-support';
import type { PlaceOutcomeScript } from './oms-harness.test-support';

export const MODEL_INSTRUMENTS = ['NIFTY26FEB25000CE', 'NIFTY26FEB25000PE'] as const;
const OUTCOMES: readonly PlaceOutcomeScript[] = [
  'accept', 'accept', 'accept', 'reject', 'timeout-received', 'timeout-lost', 'timeout-landing-late', 'crash-after-write', 'crash-after-send',
];

export type ModelOperation =
  | { readonly kind: 'place'; readonly instrument: number; readonly buy: boolean; readonly lots: number; readonly outcome: PlaceOutcomeScript }
  | { readonly kind: 'venue-fill'; readonly pick: number; readonly quantity: number; readonly pricePaise: number }
  | { readonly kind: 'venue-ends'; readonly pick: number; readonly reject: boolean }
  | { readonly kind: 'deliver'; readonly pick: number; readonly keep: boolean }
  | { readonly kind: 'drop'; readonly pick: number }
  | { readonly kind: 'cancel'; readonly pick: number; readonly crash: boolean }
  | { readonly kind: 'resend'; readonly pick: number }
  | { readonly kind: 'resolve' }
  | { readonly kind: 'reconcile' }
  | { readonly kind: 'restart' }
  | { readonly kind: 'wait'; readonly ms: number };

export const modelOperation: fc.Arbitrary<ModelOperation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('place' as const), instrument: fc.nat({ max: 1 }), buy: fc.boolean(), lots: fc.integer({ min: 1, max: 4 }), outcome: fc.constantFrom(...OUTCOMES) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('venue-fill' as const), pick: fc.nat(), quantity: fc.integer({ min: 1, max: 130 }), pricePaise: fc.integer({ min: 500, max: 50_000 }) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('venue-ends' as const), pick: fc.nat(), reject: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat(), keep: fc.boolean() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), crash: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('resend' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'resolve' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'reconcile' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 12_000 }) }), weight: 2 },
);

/** Runs the operations on a fresh harness (one lot = 65 units). */
export function runModel(operations: readonly ModelOperation[]): OmsHarness {
  const harness = new OmsHarness();
  for (const operation of operations) {
    switch (operation.kind) {
      case 'place':
        harness.place({ instrumentKey: MODEL_INSTRUMENTS[operation.instrument] ?? MODEL_INSTRUMENTS[0], side: operation.buy ? 'BUY' : 'SELL', quantity: 65 * operation.lots, outcome: operation.outcome });
        break;
      case 'venue-fill':
        harness.venueFill(operation);
        break;
      case 'venue-ends':
        harness.venueEnds(operation);
        break;
      case 'deliver':
        harness.deliver(operation.pick, operation.keep);
        break;
      case 'drop':
        harness.drop(operation.pick);
        break;
      case 'cancel':
        harness.requestCancel(operation.pick, operation.crash);
        break;
      case 'resend':
        harness.retrySend(operation.pick);
        break;
      case 'resolve':
        harness.resolveUnknown();
        break;
      case 'reconcile':
        harness.reconcileNow();
        break;
      case 'restart':
        harness.restart();
        break;
      case 'wait':
        harness.advance(operation.ms);
    }
  }
  return harness;
}

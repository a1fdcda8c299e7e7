// A strategy made from scratch: name, algorithm and version, instrument, interval, intraday or
// swing, investment. The new row is a DRAFT whose config is already deployable: the engine's
// parseDeployableConfig (the check deploy_strategy makes) runs on it before the insert, and each
// issue is shown at its field. Sizing starts all-in and without exits; the deploy dialog sets them.
import { parseDeployableConfig } from '@vyuha/engine';
import { rupeesFieldToPaise } from '../../../../format/money-input';
import { fieldErrorsOf, type FieldErrors, type NumberDraft } from './deploy-form';

export interface CreateDraft {
  readonly name: string;
  readonly algorithmId: string | null;
  readonly algorithmVersion: number | null;
  readonly instrument: { readonly instrumentId: number; readonly name: string } | null;
  readonly interval: number;
  readonly type: 'intraday' | 'swing';
  readonly investmentRupees: NumberDraft;
}

export const EMPTY_CREATE_DRAFT: CreateDraft = {
  name: '', algorithmId: null, algorithmVersion: null, instrument: null, interval: 15, type: 'intraday', investmentRupees: 1_000_000,
};

/** The insert_strategies_one object (GraphQL strategies_insert_input). */
export interface StrategyInsert {
  readonly name: string;
  readonly kind: 'algo';
  readonly mode: 'PAPER';
  readonly status: 'DRAFT';
  readonly strategy_type: 'intraday' | 'swing';
  readonly algorithm_id: string;
  readonly algorithm_version: number;
  readonly instrument_id: number;
  readonly interval_minutes: number;
  readonly config: Record<string, unknown>;
}

/**
 * The insert of a draft, or its errors per field (name, algorithm, instrument, interval, type, investment).
 * @example createInsertOf({ ...EMPTY_CREATE_DRAFT, name: '' }) // { ok: false, errors: { name: 'Give the strategy a name', ... } }
 */
export function createInsertOf(draft: CreateDraft): { readonly ok: true; readonly insert: StrategyInsert } | { readonly ok: false; readonly errors: FieldErrors } {
  const errors: Record<string, string> = {};
  const name = draft.name.trim();
  if (name === '') errors.name = 'Give the strategy a name';
  const investment = rupeesFieldToPaise(draft.investmentRupees);
  if (!investment.ok) errors.investment = `must be an amount in rupees: ${investment.error}`;
  const config = { investment: investment.ok ? investment.value : 0, sizing: { kind: 'all-in' }, manual: false };
  const parsed = parseDeployableConfig({
    ...config, interval: draft.interval, type: draft.type, instrument: draft.instrument?.name ?? '',
    algorithm: { id: draft.algorithmId ?? '', version: draft.algorithmVersion ?? 0 },
  });
  if (!parsed.ok) {
    const found = fieldErrorsOf(parsed.error.map((issue) => ({ field: issue.field, message: `${issue.field} ${issue.message}` })));
    for (const [key, message] of Object.entries(found)) errors[key] ??= message;
  }
  if (draft.algorithmId === null) errors.algorithm = 'Choose an algorithm';
  if (draft.instrument === null) errors.instrument = 'Choose an instrument';
  if (Object.keys(errors).length > 0 || draft.algorithmId === null || draft.algorithmVersion === null || draft.instrument === null) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    insert: {
      name, kind: 'algo', mode: 'PAPER', status: 'DRAFT', strategy_type: draft.type, algorithm_id: draft.algorithmId,
      algorithm_version: draft.algorithmVersion, instrument_id: draft.instrument.instrumentId, interval_minutes: draft.interval, config,
    },
  };
}

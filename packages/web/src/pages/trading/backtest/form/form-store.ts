// The backtest form's state in a zustand store persisted in sessionStorage (docs/PRODUCT.md section 4: most
// stores persist in session storage), so leaving /backtest and coming back keeps the form. The
// store remembers whose form it is: another user (a new sign-in, or a manager acting for someone)
// starts from the defaults rather than from someone else's choices.
import type { IsoDate } from '@vyuha/core';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { resetOnSignOut } from '../../../../stores/sign-out-resets';
import { defaultFormState } from './form-state';
import type { BacktestFormState } from './form-state';

export const BACKTEST_FORM_STORAGE_KEY = 'vyuha-backtest-form';
/** Bumped when the stored shape changes: an older stored form is dropped, not misread. */
const STORED_VERSION = 1;

interface BacktestFormStore {
  readonly ownerId: string | undefined;
  readonly form: BacktestFormState | undefined;
  /** Makes the form `ownerId`'s: kept when it already is, else the defaults for `today`. */
  open(request: { readonly ownerId: string; readonly today: IsoDate }): void;
  update(change: (form: BacktestFormState) => BacktestFormState): void;
  reset(request: { readonly ownerId: string; readonly today: IsoDate }): void;
}

/** A stored form this version can read (sessionStorage is written by older builds too). */
function isReadable(form: unknown): form is BacktestFormState {
  if (typeof form !== 'object' || form === null) return false;
  const fields = form as Record<string, unknown>;
  const trade = fields.tradeInstrumentsConfig as Record<string, unknown> | undefined;
  return typeof fields.name === 'string' && Array.isArray(fields.algos) && Array.isArray(fields.dateRanges)
    && Array.isArray(fields.frequenciesAndInvestments) && typeof fields.window === 'number'
    && typeof trade === 'object' && trade !== null && Array.isArray(trade.onBuy) && Array.isArray(trade.onSell);
}

export const useBacktestFormStore = create<BacktestFormStore>()(
  persist(
    (set, get) => ({
      ownerId: undefined,
      form: undefined,
      open: ({ ownerId, today }) => {
        const { ownerId: current, form } = get();
        if (current !== ownerId || !isReadable(form)) set({ ownerId, form: defaultFormState(today) });
      },
      update: (change) => {
        const { form } = get();
        if (form !== undefined) set({ form: change(form) });
      },
      reset: ({ ownerId, today }) => set({ ownerId, form: defaultFormState(today) }),
    }),
    {
      name: BACKTEST_FORM_STORAGE_KEY,
      version: STORED_VERSION,
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => ({ ownerId: state.ownerId, form: state.form }),
      migrate: () => ({ ownerId: undefined, form: undefined }),
    },
  ),
);

resetOnSignOut(() => useBacktestFormStore.setState({ ownerId: undefined, form: undefined }));

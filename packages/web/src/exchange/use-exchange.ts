// The exchange rows the session loaded for the user's zone (docs/PRODUCT.md section 7) and the hook every
// screen reads the selected exchange through: its market hours, currency, locale and tz.
// Invariants: the rows live in memory only (reloaded with each session); until they arrive, and
// for a setting naming no loaded row, the hook answers the home market's NSE row.
import { create } from 'zustand';
import { useAppStore } from '../stores/app-store';
import { resetOnSignOut } from '../stores/sign-out-resets';
import { selectedExchange, type ExchangeRow } from './exchange';

interface ExchangeRowsState {
  readonly rows: readonly ExchangeRow[];
  setRows(rows: readonly ExchangeRow[]): void;
}

export const useExchangeRows = create<ExchangeRowsState>()((set) => ({
  rows: [],
  setRows: (rows) => set({ rows }),
}));

resetOnSignOut(() => useExchangeRows.getState().setRows([]));

/** The selected exchange's row (docs/PRODUCT.md section 9: the default is NSE in Asia/Kolkata). */
export function useExchange(): ExchangeRow {
  const rows = useExchangeRows((state) => state.rows);
  const setting = useAppStore((state) => state.timeZone);
  return selectedExchange(rows, setting);
}

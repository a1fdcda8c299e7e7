// The application store of docs/PRODUCT.md section 3: the time-zone object (exchange, tz), the selected
// theme, the product setting and the managed user id; persisted in sessionStorage (docs/PRODUCT.md section 4).
// Every change of the time-zone object is also copied to localStorage, where other tabs see it
// (exchange/time-zone-share.ts, the exchange-refresh dialog).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { shareTimeZone } from '../exchange/time-zone-share';

export type Theme = 'dark' | 'light';
export type Density = 'compact' | 'cozy';
export type DashboardMode = 'LIVE' | 'PAPER';

export interface TimeZoneSetting {
  readonly exchange: string;
  readonly tz: string;
}

export interface AppState {
  readonly timeZone: TimeZoneSetting | undefined;
  readonly theme: Theme;
  readonly density: Density;
  readonly dashboardMode: DashboardMode;
  readonly drawerOpen: boolean;
  readonly showAllUsers: boolean;
  /** The product setting: which brand variant this deployment shows (docs/PRODUCT.md section 1). */
  readonly product: string;
  /** The user a manager acts for (`x-hasura-managed-user-id`), or undefined. */
  readonly managedUserId: string | undefined;
  setTimeZone(timeZone: TimeZoneSetting | undefined): void;
  setTheme(theme: Theme): void;
  setDensity(density: Density): void;
  setDashboardMode(mode: DashboardMode): void;
  setDrawerOpen(open: boolean): void;
  setShowAllUsers(show: boolean): void;
  setManagedUserId(userId: string | undefined): void;
  reset(): void;
}

export const APP_DEFAULTS = {
  timeZone: undefined,
  theme: 'dark',
  density: 'cozy',
  dashboardMode: 'LIVE',
  drawerOpen: true,
  showAllUsers: false,
  product: 'vyuha',
  managedUserId: undefined,
} as const satisfies Partial<AppState>;

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...APP_DEFAULTS,
      setTimeZone: (timeZone) => {
        set({ timeZone });
        shareTimeZone(timeZone);
      },
      setTheme: (theme) => set({ theme }),
      setDensity: (density) => set({ density }),
      setDashboardMode: (dashboardMode) => set({ dashboardMode }),
      setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
      setShowAllUsers: (showAllUsers) => set({ showAllUsers }),
      setManagedUserId: (managedUserId) => set({ managedUserId }),
      reset: () => set({ ...APP_DEFAULTS }),
    }),
    { name: 'vyuha-app', storage: createJSONStorage(() => sessionStorage) },
  ),
);

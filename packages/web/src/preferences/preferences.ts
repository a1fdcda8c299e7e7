// App preferences (docs/PRODUCT.md section 3: category application, subcategory global: drawer, theme,
// showAllUsers, timezone, density, dashboardMode; subcategory marketplace: marketplaceLayout).
// docs/PRODUCT.md section 4: the first load with no saved preferences creates and stores the defaults;
// missing keys are filled individually; a saved exchange list that differs from the configured
// default is overwritten. Saves answer with the spec's toasts (docs/PRODUCT.md section 8).
import type { Client } from '@urql/core';
import { showToast } from '../app/toast';
import { APPEND_APP_CONFIG, INSERT_APP_CONFIGS, USER_APP_CONFIGS } from '../graphql/documents';
import type { DashboardMode, Density, Theme, TimeZoneSetting } from '../stores/app-store';

export interface GlobalPreferences {
  readonly drawer: boolean;
  readonly theme: Theme;
  readonly showAllUsers: boolean;
  readonly timezone: TimeZoneSetting;
  readonly density: Density;
  readonly dashboardMode: DashboardMode;
  /** docs/PRODUCT.md section 9: exchanges NFO, NSE, BSE, BFO; default NSE. */
  readonly exchanges: readonly string[];
}

export interface MarketplacePreferences {
  readonly marketplaceLayout: 'grid' | 'list';
}

export const DEFAULT_EXCHANGES: readonly string[] = ['NFO', 'NSE', 'BSE', 'BFO'];

export function defaultGlobalPreferences(dashboardMode: DashboardMode): GlobalPreferences {
  return {
    drawer: true, theme: 'dark', showAllUsers: false, timezone: { exchange: 'NSE', tz: 'Asia/Kolkata' }, density: 'cozy', dashboardMode, exchanges: DEFAULT_EXCHANGES,
  };
}

export const DEFAULT_MARKETPLACE: MarketplacePreferences = { marketplaceLayout: 'grid' };

interface ConfigRow {
  readonly category: string;
  readonly subcategory: string;
  readonly user_id: string;
  readonly meta_data: Record<string, unknown> | null;
}

/**
 * The keys a saved preference object lacks (or holds wrongly), with their default values; the
 * exchange list is replaced when it differs from the default.
 * @example missingKeys({ theme: 'light' }, { theme: 'dark', density: 'cozy' }) // { density: 'cozy' }
 */
export function missingKeys(saved: Record<string, unknown>, defaults: object): Record<string, unknown> {
  const missing: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) {
    if (!(key in saved) || saved[key] === null) missing[key] = value;
  }
  if ('exchanges' in defaults && JSON.stringify(saved.exchanges) !== JSON.stringify((defaults as { exchanges: unknown }).exchanges) && 'exchanges' in saved) {
    missing.exchanges = (defaults as { exchanges: unknown }).exchanges;
  }
  return missing;
}

/** Loads the preferences, creating or completing them; returns the global ones as stored. */
export async function loadPreferences(client: Client, input: {
  userId: string;
  dashboardMode: DashboardMode;
  /** False once this user's session has ended: a write sent then would go out without a token (a 400 and an error toast after sign-out). */
  stillSignedIn?: () => boolean;
}): Promise<{ global: GlobalPreferences; marketplace: MarketplacePreferences } | undefined> {
  const stillSignedIn = input.stillSignedIn ?? (() => true);
  const result = await client.query<{ user_app_configs: ConfigRow[] }>(USER_APP_CONFIGS, {}, { requestPolicy: 'network-only' }).toPromise();
  if (!stillSignedIn()) return undefined;
  if (result.error) {
    showToast('error', result.error.message);
    return undefined;
  }
  const rows = (result.data?.user_app_configs ?? []).filter((row) => row.user_id === input.userId && row.category === 'application');
  const defaults = { global: defaultGlobalPreferences(input.dashboardMode), marketplace: DEFAULT_MARKETPLACE };
  const saved = {
    global: rows.find((row) => row.subcategory === 'global')?.meta_data ?? undefined,
    marketplace: rows.find((row) => row.subcategory === 'marketplace')?.meta_data ?? undefined,
  };
  const toCreate = (['global', 'marketplace'] as const).filter((subcategory) => saved[subcategory] === undefined);
  if (toCreate.length > 0 && stillSignedIn()) {
    // user_id is the server's preset (the session's user); the client never sends it.
    const objects = toCreate.map((subcategory) => ({ category: 'application', subcategory, meta_data: defaults[subcategory] }));
    const created = await client.mutation(INSERT_APP_CONFIGS, { objects }).toPromise();
    if (created.error) showToast('error', created.error.message);
    else showToast('success', 'Application preferences created successfully');
  }
  for (const subcategory of ['global', 'marketplace'] as const) {
    const current = saved[subcategory];
    if (current === undefined) continue;
    const missing = missingKeys(current, defaults[subcategory]);
    if (Object.keys(missing).length === 0) continue;
    if (!stillSignedIn()) return undefined;
    const filled = await client.mutation(APPEND_APP_CONFIG, { category: 'application', subcategory, userId: input.userId, metaData: missing }).toPromise();
    if (filled.error) showToast('error', filled.error.message);
    saved[subcategory] = { ...current, ...missing };
  }
  return {
    global: { ...defaults.global, ...(saved.global ?? {}) } as GlobalPreferences,
    marketplace: { ...defaults.marketplace, ...(saved.marketplace ?? {}) } as MarketplacePreferences,
  };
}

/** Saves some global preference keys (docs/PRODUCT.md section 8: 'Settings updated successfully', else the server's message). */
export async function saveGlobalPreferences(client: Client, input: { userId: string; changes: Partial<GlobalPreferences> }): Promise<boolean> {
  const saved = await client.mutation(APPEND_APP_CONFIG, { category: 'application', subcategory: 'global', userId: input.userId, metaData: input.changes }).toPromise();
  if (saved.error) {
    showToast('error', saved.error.message);
    return false;
  }
  showToast('success', 'Settings updated successfully');
  return true;
}

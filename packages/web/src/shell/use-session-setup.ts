// What the shell does once per signed-in user: load (or create) the preferences and apply them,
// lock the dashboard mode to PAPER for the demo and backtest roles (docs/PRODUCT.md section 4), and load the
// exchanges of the user's zone into the rows useExchange() selects from (market hours, currency).
import { useEffect } from 'react';
import { PAPER_ONLY_ROLES } from '../app/menu';
import { showToast } from '../app/toast';
import { currentAccessToken } from '../auth/auth-service';
import { readClaims } from '../auth/claims';
import { zoneOfTz, type ExchangeRow } from '../exchange/exchange';
import { useExchangeRows } from '../exchange/use-exchange';
import { EXCHANGES_BY_ZONE } from '../graphql/documents';
import { graphqlClient } from '../graphql/graphql-client';
import { loadPreferences } from '../preferences/preferences';
import { useAppStore } from '../stores/app-store';

/** True for the roles whose dashboard is PAPER only. */
export function paperOnly(role: string | undefined): boolean {
  return (PAPER_ONLY_ROLES as readonly string[]).includes(role ?? '');
}

// One load per signed-in user and page: React runs effects twice in development, and a second
// load racing the first would try to create the defaults twice.
const loads = new Map<string, Promise<Awaited<ReturnType<typeof loadPreferences>>>>();

function preferencesOnce(userId: string, load: () => ReturnType<typeof loadPreferences>): ReturnType<typeof loadPreferences> {
  const known = loads.get(userId);
  if (known) return known;
  const started = load().finally(() => {
    // Forget it once settled, so a later sign-in of the same user reloads.
    setTimeout(() => loads.delete(userId), 0);
  });
  loads.set(userId, started);
  return started;
}

export function useSessionSetup(userId: string | undefined, role: string | undefined): void {
  useEffect(() => {
    // Acting for a managed user, requests are that user's: the manager's own preferences were applied before the switch.
    if (userId === undefined || useAppStore.getState().managedUserId !== undefined) return;
    const client = graphqlClient();
    let cancelled = false;
    const forcedPaper = paperOnly(role);
    void (async () => {
      // A sign-out right after signing in must not leave first-visit writes going out without a token.
      const stillSignedIn = () => {
        const token = currentAccessToken();
        return token !== undefined && readClaims(token)?.userId === userId;
      };
      const loaded = await preferencesOnce(userId, () => loadPreferences(client, { userId, dashboardMode: forcedPaper ? 'PAPER' : 'LIVE', stillSignedIn }));
      if (cancelled || !loaded) return;
      const store = useAppStore.getState();
      const { global } = loaded;
      store.setTheme(global.theme === 'light' ? 'light' : 'dark');
      store.setDensity(global.density === 'compact' ? 'compact' : 'cozy');
      store.setDashboardMode(forcedPaper ? 'PAPER' : global.dashboardMode === 'PAPER' ? 'PAPER' : 'LIVE');
      store.setDrawerOpen(global.drawer !== false);
      store.setShowAllUsers(global.showAllUsers === true);
      store.setTimeZone(global.timezone);
      const zone = zoneOfTz(global.timezone.tz);
      const exchanges = await client.query<{ exchanges: ExchangeRow[] }>(EXCHANGES_BY_ZONE, { zone }).toPromise();
      if (cancelled) return;
      // docs/PRODUCT.md section 8: exchange query failures show the message.
      if (exchanges.error) showToast('error', exchanges.error.message);
      else useExchangeRows.getState().setRows(exchanges.data?.exchanges ?? []);
    })();
    return () => {
      cancelled = true;
    };
  }, [userId, role]);
}

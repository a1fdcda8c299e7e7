// The root of every page (docs/PRODUCT.md section 2): theme stylesheet named after the selected theme,
// toasts top-center, the dialog host, the session-refresh and exchange-refresh dialogs, the
// new-version notice, and the GraphQL provider.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './toasts.css';
import { Button, MantineProvider, Modal, Stack, Text } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { authActor, onTabMessage } from '../auth/auth-service';
import { readClaims } from '../auth/claims';
import { currentBrand } from '../app/brand';
import { loadLiveChat } from '../app/live-chat';
import { clearLocalSession, signOut } from '../app/sign-out';
import { appTheme } from '../app/theme';
import { showToast } from '../app/toast';
import { onSessionError, restartGraphqlClients, SESSION_EXPIRED_MESSAGE } from '../graphql/graphql-client';
import { GraphqlProvider } from '../graphql/GraphqlProvider';
import { exchangeRefreshFor, TIME_ZONE_STORAGE_KEY } from '../exchange/time-zone-share';
import { useAppStore, type TimeZoneSetting } from '../stores/app-store';
import { useDeployStore } from '../stores/deploy-store';
import { useDeployedVersion } from './use-deployed-version';

/** docs/PRODUCT.md section 9: toasts have base z-index 100. */
const TOAST_Z_INDEX = 100;
/** Toasts open below the header, never over its buttons (toasts.css). */
const TOAST_CLASSES = { root: 'vyuha-toasts' };

function useSessionDialogs(): { sessionChanged: boolean; exchangeChanged: TimeZoneSetting | undefined } {
  const [sessionChanged, setSessionChanged] = useState(false);
  const [exchangeChanged, setExchangeChanged] = useState<TimeZoneSetting | undefined>(undefined);
  useEffect(() => onTabMessage((message) => {
    if (message.type !== 'session') return;
    const snapshot = authActor.getSnapshot();
    const incoming = readClaims(message.session.accessToken)?.userId;
    // Another user's session in another tab: this tab's view is stale (docs/PRODUCT.md section 2). The same
    // user's refreshed session is handed over silently by the auth service.
    if (incoming !== undefined && incoming !== snapshot.context.userId) {
      useAppStore.getState().setManagedUserId(undefined);
      setSessionChanged(true);
    }
  }), []);
  // docs/PRODUCT.md section 2: another tab changed the stored time-zone object (its localStorage copy; this
  // tab's own changes fire no storage event here).
  useEffect(() => {
    const onStorage = (event: StorageEvent): void => {
      if (event.key !== TIME_ZONE_STORAGE_KEY) return;
      const changed = exchangeRefreshFor(event.oldValue, event.newValue, useAppStore.getState().timeZone);
      if (changed) setExchangeChanged(changed);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  // docs/PRODUCT.md section 8: a GraphQL error naming the user-id claim, or invalid-jwt / invalid-refresh-token,
  // signs out and goes to sign-in (the latter two with the session-expired message).
  const navigate = useNavigate();
  useEffect(() => onSessionError((kind) => {
    if (kind === 'expired') showToast('error', SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
    void signOut().then(() => navigate('/authenticate/signin'));
  }), [navigate]);
  // A sign-out in another tab, or a session that could not be refreshed, ends this tab's session too.
  useEffect(() => {
    let wasSignedIn = authActor.getSnapshot().matches('signedIn');
    const subscription = authActor.subscribe((snapshot) => {
      const signedIn = snapshot.matches('signedIn');
      if (wasSignedIn && !signedIn && snapshot.context.error?.error === 'invalid-refresh-token') {
        showToast('error', SESSION_EXPIRED_MESSAGE, { id: 'session-expired' });
      }
      if (wasSignedIn && !signedIn) clearLocalSession();
      if (!wasSignedIn && signedIn) restartGraphqlClients();
      wasSignedIn = signedIn;
    });
    return () => subscription.unsubscribe();
  }, []);
  return { sessionChanged, exchangeChanged };
}

/** Takes the other tab's exchange setting into this tab and reloads, so every screen's data follows it. */
function adoptExchange(setting: TimeZoneSetting | undefined): void {
  if (setting !== undefined) useAppStore.getState().setTimeZone(setting);
  window.location.reload();
}

function VersionWatcher() {
  const deployed = useDeployedVersion();
  const notifyRefresh = useDeployStore((state) => state.notifyRefresh);
  useEffect(() => {
    if (deployed.error) showToast('error', deployed.error, { id: 'version-error' });
  }, [deployed.error]);
  useEffect(() => {
    if (!notifyRefresh) return;
    showToast('info', 'A new version of Vyuha is available: refresh the page to use it.', { id: 'version-refresh', sticky: true });
  }, [notifyRefresh]);
  return notifyRefresh ? (
    <Button
      data-testid="version-refresh"
      size="xs"
      pos="fixed"
      bottom={16}
      right={16}
      style={{ zIndex: TOAST_Z_INDEX + 1 }}
      onClick={() => {
        if (deployed.version) useDeployStore.getState().acknowledge(deployed.version);
        window.location.reload();
      }}
    >
      New version: refresh
    </Button>
  ) : null;
}

export function Component() {
  const theme = useAppStore((state) => state.theme);
  const density = useAppStore((state) => state.density);
  const brand = currentBrand();
  const mantineTheme = useMemo(() => appTheme({ primaryColor: brand.primaryColor, density }), [brand.primaryColor, density]);
  const { sessionChanged, exchangeChanged } = useSessionDialogs();
  useEffect(() => loadLiveChat(), []);
  useEffect(() => {
    // docs/PRODUCT.md section 2: the theme stylesheet is named after the selected theme.
    document.documentElement.dataset.theme = theme;
    document.title = brand.name;
  }, [theme, brand.name]);
  return (
    <MantineProvider theme={mantineTheme} forceColorScheme={theme}>
      <Notifications position="top-center" zIndex={TOAST_Z_INDEX} classNames={TOAST_CLASSES} />
      <ModalsProvider>
        <GraphqlProvider>
          <Outlet />
          <VersionWatcher />
          <Modal opened={sessionChanged} onClose={() => window.location.reload()} title="Your session changed in another tab" centered>
            <Stack>
              <Text size="sm">Another tab signed in as a different user. Reload to continue with that session.</Text>
              <Button onClick={() => window.location.reload()} data-testid="session-refresh">Reload</Button>
            </Stack>
          </Modal>
          <Modal opened={exchangeChanged !== undefined} onClose={() => adoptExchange(exchangeChanged)} title="The exchange setting changed" centered>
            <Stack data-testid="exchange-refresh-dialog">
              <Text size="sm">
                The exchange changed to {exchangeChanged?.exchange} ({exchangeChanged?.tz}) in another tab. Market hours, holidays
                and the market's time zone follow the exchange: reload to show this tab's screens for it.
              </Text>
              <Button onClick={() => adoptExchange(exchangeChanged)} data-testid="exchange-refresh">Reload</Button>
            </Stack>
          </Modal>
        </GraphqlProvider>
      </ModalsProvider>
    </MantineProvider>
  );
}

// The header's controls (docs/PRODUCT.md sections 2, 4, 6): live/paper dashboard mode (PAPER and locked for
// the demo and backtest roles, LIVE by default otherwise), theme (dark default; saved when signed
// in), density (compact or cozy), the manager's managed-user switcher and show-all-users switch,
// the account menu (with the exchange and time-zone preference), and for the roles that may trade
// the kill switch, the pending signals and the trading alerts (trading/TradingHeader.tsx).
import { ActionIcon, Box, Button, Group, Menu, SegmentedControl, Select, Switch, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { useNavigate } from 'react-router';
import { lazyPart } from '../app/lazy-part';
import { MANAGING_ROLES } from '../app/menu';
import { signOut } from '../app/sign-out';
import { MANAGED_USERS } from '../graphql/documents';
import { graphqlClient, restartGraphqlClients } from '../graphql/graphql-client';
import { saveGlobalPreferences, type GlobalPreferences } from '../preferences/preferences';
import { useAppStore, type DashboardMode } from '../stores/app-store';
import { TradingHeader } from './trading/TradingHeader';
import { paperOnly } from './use-session-setup';

/** The exchange and time-zone dialog loads when the account menu opens it. */
const ExchangeSettings = lazyPart(() => import('../exchange/ExchangeSettings').then((module) => module.ExchangeSettings), { renderWhen: (props) => props.opened });

interface ManagedUsersData {
  managers: Array<{ user_id: string; user: { name: string; user_brokers: Array<{ active: boolean }> } | null }>;
}

function save(userId: string | undefined, changes: Partial<GlobalPreferences>): void {
  // Preferences are the signed-in user's own, never a managed user's.
  if (userId === undefined || useAppStore.getState().managedUserId !== undefined) return;
  void saveGlobalPreferences(graphqlClient(), { userId, changes });
}

/**
 * The manager's "Act for a user" picker and show-all-users switch (docs/PRODUCT.md section 6). In
 * the header on a wide screen; on a phone it sits at the top of the side menu (AppShellLayout), so
 * the header fits 390 px. `onChosen` runs after a user is chosen (the phone's menu closes).
 */
export function ManagedUserPicker({ userId, onChosen }: { readonly userId: string; readonly onChosen?: () => void }) {
  const showAllUsers = useAppStore((state) => state.showAllUsers);
  const navigate = useNavigate();
  // The list is the manager's own: asked without the managed-user header.
  const [result] = useQuery<ManagedUsersData>({ query: MANAGED_USERS, variables: { userId } });
  const users = (result.data?.managers ?? [])
    // docs/PRODUCT.md section 6: show-all-users includes users without an active broker.
    .filter((link) => showAllUsers || (link.user?.user_brokers ?? []).some((broker) => broker.active))
    .map((link) => ({ value: link.user_id, label: link.user?.name ?? link.user_id }));
  const choose = (value: string | null): void => {
    if (value === null) return;
    actFor(value);
    onChosen?.();
    void navigate('/dashboard');
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Select
        size="xs"
        w={180}
        placeholder={users.length === 0 ? 'No managed users' : 'Act for a user'}
        data={users}
        value={null}
        onChange={choose}
        searchable
        disabled={users.length === 0}
        aria-label="Act for a managed user"
        data-testid="managed-user-switcher"
      />
      <Tooltip label="Include users without an active broker account">
        <Switch
          size="xs"
          label="All users"
          checked={showAllUsers}
          onChange={(event) => {
            useAppStore.getState().setShowAllUsers(event.currentTarget.checked);
            save(userId, { showAllUsers: event.currentTarget.checked });
          }}
          data-testid="show-all-users"
        />
      </Tooltip>
    </Group>
  );
}

/** Starts or stops acting for a managed user: the clients restart with (or without) its header. */
function actFor(managedUserId: string | undefined): void {
  useAppStore.getState().setManagedUserId(managedUserId);
  restartGraphqlClients();
}

function StopActing({ phone }: { readonly phone: boolean }) {
  const navigate = useNavigate();
  return (
    <Button size="xs" variant="light" color="orange" px={phone ? 8 : "sm"} data-testid="stop-acting"
      onClick={() => { actFor(undefined); void navigate('/dashboard'); }}>
      {phone ? 'Stop acting' : 'Acting for a user · stop'}
    </Button>
  );
}

/** A header button that flips one preference (theme, density). */
function HeaderToggle({ label, name, symbol, onToggle }: { readonly label: string; readonly name: string; readonly symbol: string; readonly onToggle: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" aria-label={`Toggle ${name}`} data-testid={`${name}-toggle`} onClick={onToggle}>
        {symbol}
      </ActionIcon>
    </Tooltip>
  );
}

/** The density and theme actions, shared by the header buttons and (on a phone) the account menu. */
function useDisplayActions(userId: string | undefined) {
  const theme = useAppStore((state) => state.theme);
  const density = useAppStore((state) => state.density);
  return {
    theme,
    density,
    toggleDensity: (): void => {
      const next = density === 'cozy' ? 'compact' : 'cozy';
      useAppStore.getState().setDensity(next);
      save(userId, { density: next });
    },
    toggleTheme: (): void => {
      const next = theme === 'dark' ? 'light' : 'dark';
      useAppStore.getState().setTheme(next);
      save(userId, { theme: next });
    },
  };
}

function setMode(userId: string | undefined, mode: DashboardMode): void {
  useAppStore.getState().setDashboardMode(mode);
  save(userId, { dashboardMode: mode });
}

export function ShellHeader({ role, userId, phone }: { readonly role: string | undefined; readonly userId: string | undefined; readonly phone: boolean }) {
  const managedUserId = useAppStore((state) => state.managedUserId);
  const { theme, density, toggleDensity, toggleTheme } = useDisplayActions(userId);
  const mode = useAppStore((state) => state.dashboardMode);
  const locked = paperOnly(role);
  const navigate = useNavigate();
  const isManager = (MANAGING_ROLES as readonly string[]).includes(role ?? '');
  const shownMode = locked ? 'PAPER' : mode;
  const [exchangeOpen, setExchangeOpen] = useState(false);
  return (
    <Group gap={8} wrap="nowrap">
      {userId !== undefined && <ExchangeSettings userId={userId} opened={exchangeOpen} onClose={() => setExchangeOpen(false)} />}
      {userId !== undefined && <TradingHeader role={role} userId={userId} />}
      {isManager && managedUserId !== undefined && <StopActing phone={phone} />}
      {isManager && managedUserId === undefined && userId !== undefined && !phone && <ManagedUserPicker userId={userId} />}
      {/* On a phone the mode and density move into the account menu, so the header fits 390 px. */}
      <Tooltip label={locked ? 'Demo and backtest plans trade on paper only' : 'Dashboard mode'}>
        <SegmentedControl
          size="xs"
          data={['LIVE', 'PAPER']}
          value={shownMode}
          disabled={locked}
          onChange={(value) => setMode(userId, value as DashboardMode)}
          data-testid="dashboard-mode"
          visibleFrom="sm"
        />
      </Tooltip>
      <Box visibleFrom="sm">
        <HeaderToggle label={density === 'cozy' ? 'Compact density' : 'Cozy density'} name="density" symbol={density === 'cozy' ? '▤' : '☰'} onToggle={toggleDensity} />
      </Box>
      <HeaderToggle label={theme === 'dark' ? 'Light theme' : 'Dark theme'} name="theme" symbol={theme === 'dark' ? '☀' : '☾'} onToggle={toggleTheme} />
      <Menu position="bottom-end">
        <Menu.Target>
          <Button size="xs" variant="default" px={10} aria-label="Account" data-testid="account-menu">
            <Box component="span" visibleFrom="sm">Account</Box>
            <Box component="span" hiddenFrom="sm">⋮</Box>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => void navigate('/users/edit')}>Profile and security</Menu.Item>
          {managedUserId === undefined && <Menu.Item onClick={() => setExchangeOpen(true)} data-testid="menu-exchange">Exchange and time zone</Menu.Item>}
          {isManager && <Menu.Item onClick={() => void navigate('/manageAccounts')}>Managed accounts</Menu.Item>}
          {(role === 'administrator' || role === 'superadmin' || role === 'support') && <Menu.Item onClick={() => void navigate('/users/list')}>Users</Menu.Item>}
          <Box hiddenFrom="sm">
            <Menu.Divider />
            <Menu.Item disabled={locked} onClick={() => setMode(userId, shownMode === 'LIVE' ? 'PAPER' : 'LIVE')} data-testid="menu-dashboard-mode">
              Dashboard mode: {shownMode}{locked ? ' (paper only)' : ` · switch to ${shownMode === 'LIVE' ? 'PAPER' : 'LIVE'}`}
            </Menu.Item>
            <Menu.Item onClick={toggleDensity}>{density === 'cozy' ? 'Compact density' : 'Cozy density'}</Menu.Item>
          </Box>
          <Menu.Divider />
          <Menu.Item data-testid="sign-out" onClick={() => void signOut().then(() => navigate('/authenticate/signin'))}>Sign out</Menu.Item>
          <Menu.Item color="red" onClick={() => void signOut({ all: true }).then(() => navigate('/authenticate/signin'))}>Sign out everywhere</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

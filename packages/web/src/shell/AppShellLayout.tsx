// The default layout: the signed-in shell (docs/PRODUCT.md sections 2, 4, 6): side menu with the role's
// entries, header with the live/paper mode, theme and density, the manager's managed-user
// switcher and show-all-users switch (at the top of the side menu on a phone), the account menu,
// the credit and licence notice, and the selected exchange's market hours under the menu.
import { AppShell, Box, Burger, Group, Loader, Center, NavLink, ScrollArea, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useAuthState } from '../auth/auth-service';
import { BrandLogo } from '../app/BrandLogo';
import { MANAGING_ROLES, visibleMenu } from '../app/menu';
import { currencyText, marketHoursText } from '../exchange/exchange';
import { useExchange } from '../exchange/use-exchange';
import { useAppStore } from '../stores/app-store';
import { CreditNotice } from './CreditNotice';
import { HolidayNotice } from './HolidayNotice';
import { ManagedUserPicker, ShellHeader } from './ShellHeader';
import { useSessionSetup } from './use-session-setup';

function SideMenu({ role, onNavigate }: { readonly role: string | undefined; readonly onNavigate: () => void }) {
  const location = useLocation();
  const exchange = useAppStore((state) => state.timeZone?.exchange);
  const actingForUser = useAppStore((state) => state.managedUserId !== undefined);
  const entries = visibleMenu({ role, exchange, actingForUser });
  return (
    <ScrollArea>
      <nav aria-label="Main menu" data-testid="side-menu">
        {entries.map((entry) => (
          <NavLink
            key={entry.path}
            component={Link}
            to={entry.path}
            label={entry.label}
            active={location.pathname === entry.path || location.pathname.startsWith(`${entry.path}/`)}
            onClick={onNavigate}
            data-testid={`menu-${entry.path.slice(1)}`}
          />
        ))}
      </nav>
    </ScrollArea>
  );
}

/** The selected exchange's market hours and currency (docs/PRODUCT.md section 9: they follow the exchange setting). */
function MarketHours() {
  const exchange = useExchange();
  return <Text size="xs" c="dimmed" mt="auto" px="xs" data-testid="market-hours">Market {marketHoursText(exchange)} · {currencyText(exchange)}</Text>;
}

export function Component() {
  const auth = useAuthState((snapshot) => ({ starting: snapshot.matches('starting'), signedIn: snapshot.matches('signedIn'), role: snapshot.context.role, userId: snapshot.context.userId }));
  const drawerOpen = useAppStore((state) => state.drawerOpen);
  const setDrawerOpen = useAppStore((state) => state.setDrawerOpen);
  // On a phone the menu covers the page, so it starts closed and closes after each choice; the
  // saved drawer preference is the desktop's.
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const [phoneMenuOpen, setPhoneMenuOpen] = useState(false);
  const managedUserId = useAppStore((state) => state.managedUserId);
  const managing = (MANAGING_ROLES as readonly string[]).includes(auth.role ?? '');
  const menuOpen = phone ? phoneMenuOpen : drawerOpen;
  const toggleMenu = (): void => (phone ? setPhoneMenuOpen(!phoneMenuOpen) : setDrawerOpen(!drawerOpen));
  useSessionSetup(auth.signedIn ? auth.userId : undefined, auth.role);
  if (auth.starting) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  // Signed out: the route's auth check sends the browser to sign in.
  if (!auth.signedIn) return <Outlet />;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !phoneMenuOpen, desktop: !drawerOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px={phone ? 'xs' : 'md'} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Burger opened={menuOpen} onClick={toggleMenu} size="sm" aria-label="Toggle the menu" />
            {!phone && (
              <Link to="/dashboard" aria-label="Dashboard">
                <BrandLogo height={28} />
              </Link>
            )}
          </Group>
          <ShellHeader role={auth.role} userId={auth.userId} phone={phone} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        {phone && auth.userId !== undefined && managing && managedUserId === undefined && (
          <Box mb="sm" px="xs"><ManagedUserPicker userId={auth.userId} onChosen={() => setPhoneMenuOpen(false)} /></Box>
        )}
        <SideMenu role={auth.role} onNavigate={() => setPhoneMenuOpen(false)} />
        <MarketHours />
        <Text size="xs" c="dimmed" px="xs">Signed in as {auth.role}</Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <CreditNotice userId={auth.userId} />
        <HolidayNotice />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

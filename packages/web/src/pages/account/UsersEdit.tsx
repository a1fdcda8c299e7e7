// /users/edit: the signed-in user's account. Profile and broker accounts are GraphQL rows of the
// acting user (the managed user while a manager acts for one); e-mail, password, two-factor,
// security keys and access tokens belong to the signed-in account and go to the auth service;
// licences and credits show the utilisation figures and alerts of the acting user. The Managers tab
// (the signed-in user's own, hidden while acting) lists who manages them and what those managers did.
// /users/edit?user=<id> opens another user's page for administrators, superadmins and support
// (users/UserAdminPage.tsx); any other role asking for it is refused.
import { Alert, Stack, Tabs, Title } from '@mantine/core';
import { useAuthState } from '../../auth/auth-service';
import { USER_LIST_ROLES } from '../../app/menu';
import { Forbidden } from '../errors/Forbidden';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppStore } from '../../stores/app-store';
import { useActingUserId, useSignedInUserId } from './account-helpers';
import { readBrokerLoginOutcome, type BrokerLoginOutcome } from './broker-login-outcome';
import { BrokersSection } from './BrokersSection';
import { CredentialsSection } from './CredentialsSection';
import { MfaSection } from './MfaSection';
import { PatSection } from './PatSection';
import { ProfileSection } from './ProfileSection';
import { SecurityKeysSection } from './SecurityKeysSection';
import { useAuthUser } from './use-auth-user';
import { OwnLicencesSection } from './users/OwnLicencesSection';
import { MyManagersSection } from './users/MyManagersSection';
import { UserAdminPage } from './users/UserAdminPage';

const TABS = ['profile', 'sign-in', 'two-factor', 'security-keys', 'tokens', 'brokers', 'licences', 'managers'] as const;
type TabName = (typeof TABS)[number];

function isTab(value: string | null): value is TabName {
  return value !== null && (TABS as readonly string[]).includes(value);
}

export function Component() {
  const [searchParams] = useSearchParams();
  const role = useAuthState((snapshot) => snapshot.context.role);
  const selfId = useSignedInUserId();
  const other = searchParams.get('user');
  if (other !== null && other !== selfId) {
    if (!(USER_LIST_ROLES as readonly string[]).includes(role ?? '')) {
      return <Forbidden reason="Other users' pages are for administrators, superadmins and support." />;
    }
    return <UserAdminPage key={other} userId={other} />;
  }
  return <OwnAccount />;
}

function OwnAccount() {
  // The open tab is in the address (`?tab=brokers`), so other screens can link to a section.
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: TabName = isTab(requested) ? requested : 'profile';
  const userId = useActingUserId();
  const selfId = useSignedInUserId();
  const acting = useAppStore((state) => state.managedUserId !== undefined);
  const auth = useAuthUser();
  // The broker login (/api/broker_login/...) always comes back here with its outcome: kept on the
  // brokers tab in words until dismissed, and taken out of the address so a reload does not repeat it.
  const [brokerLogin, setBrokerLogin] = useState<BrokerLoginOutcome | undefined>(() => readBrokerLoginOutcome(searchParams));
  useEffect(() => {
    const outcome = readBrokerLoginOutcome(searchParams);
    if (outcome === undefined) return;
    setBrokerLogin(outcome);
    setSearchParams({ tab: 'brokers' }, { replace: true });
  }, [searchParams, setSearchParams]);

  if (!userId) return null;

  return (
    <Stack gap="md">
      <Title order={2}>Account settings</Title>
      {acting && (
        <Alert color="blue" title="Acting for a managed user">
          Profile and broker accounts below are the managed user's. Sign-in, two-factor, security keys and access tokens
          are always your own.
        </Alert>
      )}
      {auth.error && <Alert color="red" title="Your sign-in details could not be loaded">{auth.error.message}</Alert>}
      <Tabs value={tab} onChange={(value) => setSearchParams(isTab(value) ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="profile">Profile</Tabs.Tab>
          <Tabs.Tab value="sign-in">E-mail and password</Tabs.Tab>
          <Tabs.Tab value="two-factor">Two-factor</Tabs.Tab>
          <Tabs.Tab value="security-keys">Security keys</Tabs.Tab>
          <Tabs.Tab value="tokens">Access tokens</Tabs.Tab>
          <Tabs.Tab value="brokers">Broker accounts</Tabs.Tab>
          <Tabs.Tab value="licences" data-testid="tab-licences">Licences and credits</Tabs.Tab>
          {!acting && selfId !== undefined && <Tabs.Tab value="managers">Managers</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileSection userId={userId} authUser={auth.user} acting={acting} />
        </Tabs.Panel>
        <Tabs.Panel value="sign-in">
          <CredentialsSection currentEmail={auth.user?.email ?? undefined} />
        </Tabs.Panel>
        <Tabs.Panel value="two-factor">
          <MfaSection authUser={auth.user} loading={auth.loading} onChanged={auth.reload} />
        </Tabs.Panel>
        <Tabs.Panel value="security-keys">
          <SecurityKeysSection />
        </Tabs.Panel>
        <Tabs.Panel value="tokens">
          <PatSection />
        </Tabs.Panel>
        <Tabs.Panel value="brokers">
          <BrokersSection userId={userId} loginOutcome={brokerLogin} onDismissLoginOutcome={() => setBrokerLogin(undefined)} />
        </Tabs.Panel>
        <Tabs.Panel value="licences">
          <OwnLicencesSection userId={userId} />
        </Tabs.Panel>
        {!acting && selfId !== undefined && (
          <Tabs.Panel value="managers">
            <MyManagersSection userId={selfId} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}

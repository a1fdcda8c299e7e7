// The route checks of docs/PRODUCT.md section 2. The spec names them and leaves their rules out; ours
// (ARCHITECTURE.md, "The web app", Routes):
// - auth: signed in (an anonymous session counts); otherwise to /authenticate/signin, which
//   returns to the page after sign-in.
// - signup: the spec puts `auth` on /authenticate/signup; we read it as "signed out, or signed in
//   anonymously" (an anonymous user signs up by conversion). A full account goes to /dashboard.
// - role-check: the page's menu entry (docs/PRODUCT.md section 6) lists the role.
// - strat-permission-check: the strategy is the user's, a managed user's, or published and
//   subscribed by the user; administrators and superadmins see every strategy.
// - manage-accounts: manager, administrator or superadmin; user-management: administrator or superadmin,
//   and support (read-only, names masked by the server).
// - update-mode: /version.json says a deploy is under way: the page is read-only (update-mode.ts).
import { Alert, Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useQuery } from 'urql';
import { useAuthState } from '../auth/auth-service';
import { useDeployedVersion } from '../shell/use-deployed-version';
import { allows, entryForPath, MANAGING_ROLES, USER_LIST_ROLES, USER_MANAGEMENT_ROLES } from './menu';
import { ReadOnlyContext } from './update-mode';
import { Forbidden } from '../pages/errors/Forbidden';

export type Check = 'auth' | 'signup' | 'role-check' | 'strat-permission-check' | 'manage-accounts' | 'user-management' | 'update-mode';

function Waiting() {
  return (
    <Center h="60vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

const STRATEGY_ACCESS = `query StrategyAccess($id: uuid!, $userId: uuid!) {
  strategies_by_pk(strategy_id: $id) { strategy_id user_id published }
  managers(where: { manager_id: { _eq: $userId } }) { user_id }
  subscriptions(where: { strategy_id: { _eq: $id }, user_id: { _eq: $userId }, active: { _eq: true } }, limit: 1) { subscription_id }
}`;

interface StrategyAccessData {
  strategies_by_pk: { strategy_id: string; user_id: string; published: boolean } | null;
  managers: Array<{ user_id: string }>;
  subscriptions: Array<{ subscription_id: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function StrategyCheck({ userId, staff, children }: { readonly userId: string; readonly staff: boolean; readonly children: React.ReactNode }) {
  const params = useParams();
  const id = params.strategy_id ?? params.id ?? '';
  const valid = UUID.test(id);
  const [result] = useQuery<StrategyAccessData>({ query: STRATEGY_ACCESS, variables: { id, userId }, pause: !valid });
  if (!valid) return <Forbidden reason={`"${id}" is not a strategy id.`} />;
  if (result.error) return <Alert color="red" title="The strategy could not be checked">{result.error.message}</Alert>;
  // While the check is under way the page mounts hidden, so its own subscriptions start beside
  // the check instead of after it (the server filters what they return by the same rules; nothing
  // of the page shows before the check passes). The page keeps its place in the tree when shown.
  if (result.fetching && !result.data) {
    return (
      <>
        <Waiting />
        <div hidden>{children}</div>
      </>
    );
  }
  const strategy = result.data?.strategies_by_pk;
  const managed = new Set(result.data?.managers.map((link) => link.user_id));
  const allowed = strategy != null
    && (staff || strategy.user_id === userId || managed.has(strategy.user_id) || (strategy.published && (result.data?.subscriptions.length ?? 0) > 0));
  return allowed
    ? (
      <>
        {null}
        <div>{children}</div>
      </>
    )
    : <Forbidden reason="This strategy is not yours, not a managed user's, and not a published strategy you subscribe to." />;
}

/** Renders the child route when every check passes. */
export function Guard({ checks }: { readonly checks: readonly Check[] }) {
  const location = useLocation();
  const state = useAuthState((snapshot) => ({
    starting: snapshot.matches('starting'),
    signedIn: snapshot.matches('signedIn'),
    role: snapshot.context.role,
    userId: snapshot.context.userId,
    anonymous: snapshot.context.session?.user?.isAnonymous === true,
  }));
  const deployed = useDeployedVersion();
  if (state.starting) return <Waiting />;
  if (checks.includes('signup')) {
    return state.signedIn && !state.anonymous ? <Navigate to="/dashboard" replace /> : <Outlet />;
  }
  if (checks.includes('auth') && !state.signedIn) {
    return <Navigate to="/authenticate/signin" replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  if (checks.includes('role-check')) {
    const entry = entryForPath(location.pathname);
    if (!entry || !allows(entry, state.role)) return <Forbidden reason={`The ${entry?.label ?? 'requested'} screen is not part of the ${state.role ?? 'current'} plan.`} />;
  }
  if (checks.includes('manage-accounts') && !(MANAGING_ROLES as readonly string[]).includes(state.role ?? '')) {
    return <Forbidden reason="Managing accounts is for managers, administrators and superadmins." />;
  }
  if (checks.includes('user-management') && !(USER_LIST_ROLES as readonly string[]).includes(state.role ?? '')) {
    return <Forbidden reason="User management is for administrators and superadmins (support reads it)." />;
  }
  const readOnly = checks.includes('update-mode') && deployed.updateMode;
  const content = (
    <ReadOnlyContext.Provider value={readOnly}>
      {readOnly && (
        <Alert color="yellow" title="A new version is being deployed" mb="md">
          This screen is read-only until the deploy is finished.
        </Alert>
      )}
      <Outlet />
    </ReadOnlyContext.Provider>
  );
  if (checks.includes('strat-permission-check')) return <StrategyCheck userId={state.userId ?? ''} staff={(USER_MANAGEMENT_ROLES as readonly string[]).includes(state.role ?? '')}>{content}</StrategyCheck>;
  return content;
}

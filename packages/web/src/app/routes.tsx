// docs/PRODUCT.md section 2's route table: five layouts, every path, and the checks of each. Pages are
// code-split (react-router `lazy`: each page module exports `Component`); a chunk that no longer
// exists after a deploy reloads the route once (stale-chunks.ts).
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Guard, type Check } from './guards';
import { lazyPage } from './stale-chunks';
import { RouteError } from '../pages/errors/RouteError';

const page = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: lazyPage(load) });

function guarded(checks: readonly Check[], route: RouteObject): RouteObject {
  return { element: <Guard checks={checks} />, children: [route] };
}

const APP_CHECKS: readonly Check[] = ['auth', 'role-check', 'update-mode'];
const STRATEGY_CHECKS: readonly Check[] = ['auth', 'strat-permission-check'];

/** The trading screens of docs/PRODUCT.md section 2 (auth, role-check, update-mode), each its own chunk. */
const TRADING_SCREENS: ReadonlyArray<readonly [string, () => Promise<{ Component: React.ComponentType }>]> = [
  ['/algo', () => import('../pages/trading/AlgoPage')],
  ['/baskets', () => import('../pages/trading/BasketsPage')],
  ['/backtest', () => import('../pages/trading/BacktestPage')],
  ['/chart', () => import('../pages/trading/ChartPage')],
  ['/ensembleSync', () => import('../pages/trading/EnsembleSyncPage')],
  ['/payoff', () => import('../pages/trading/PayoffPage')],
  ['/reports', () => import('../pages/trading/ReportsPage')],
  ['/strategies', () => import('../pages/trading/StrategiesPage')],
  ['/subscriptions', () => import('../pages/trading/SubscriptionsPage')],
  ['/userAccounts', () => import('../pages/trading/UserAccountsPage')],
];

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    lazy: lazyPage(() => import('../shell/RootShell')),
    children: [
      // landing
      { lazy: lazyPage(() => import('../shell/LandingLayout')), children: [{ path: '/', ...page(() => import('../pages/public/Landing')) }] },
      // auth
      {
        lazy: lazyPage(() => import('../shell/AuthLayout')),
        children: [
          { path: '/authenticate/signin', ...page(() => import('../pages/auth/SignIn')) },
          { path: '/authenticate/signup-success', ...page(() => import('../pages/auth/SignUpSuccess')) },
          { path: '/authenticate/forgot-password', ...page(() => import('../pages/auth/ForgotPassword')) },
          { path: '/authenticate/forgot-password-confirmation', ...page(() => import('../pages/auth/ForgotPasswordConfirmation')) },
          { path: '/authenticate/reset-password', ...page(() => import('../pages/auth/ResetPassword')) },
          { path: '/authenticate/reset-password-confirmation', ...page(() => import('../pages/auth/ResetPasswordConfirmation')) },
          { path: '/authenticate/redirect', ...page(() => import('../pages/auth/AuthRedirect')) },
          // docs/PRODUCT.md section 2 puts the auth check on sign-up: an anonymous session signs up by conversion (deanonymize).
          guarded(['signup'], { path: '/authenticate/signup', ...page(() => import('../pages/auth/SignUp')) }),
        ],
      },
      // noauth
      {
        lazy: lazyPage(() => import('../shell/PublicLayout')),
        children: [
          { path: '/brokersInfo', ...page(() => import('../pages/public/BrokersInfo')) },
          { path: '/privacy-policy', ...page(() => import('../pages/public/PrivacyPolicy')) },
          { path: '/terms', ...page(() => import('../pages/public/Terms')) },
          { path: '/report', ...page(() => import('../pages/public/ReportPage')) },
          { path: '/manageAccounts/consent', ...page(() => import('../pages/public/ManagerConsent')) },
        ],
      },
      // default: the signed-in shell
      {
        lazy: lazyPage(() => import('../shell/AppShellLayout')),
        children: [
          guarded(['auth', 'update-mode'], { path: '/dashboard', ...page(() => import('../pages/trading/DashboardPage')) }),
          guarded(['auth', 'update-mode'], { path: '/positions', ...page(() => import('../pages/trading/PositionsPage')) }),
          ...TRADING_SCREENS.map(([path, load]) => guarded(APP_CHECKS, { path, ...page(load) })),
          guarded(STRATEGY_CHECKS, { path: '/backtest/:strategy_id', ...page(() => import('../pages/trading/BacktestPage')) }),
          guarded(STRATEGY_CHECKS, { path: '/baskets/:strategy_id', ...page(() => import('../pages/trading/BasketsPage')) }),
          guarded(STRATEGY_CHECKS, { path: '/strategies/:strategy_id', ...page(() => import('../pages/trading/StrategyDetailPage')) }),
          // An ensemble is an administrators' object (menu roles: administrator, superadmin), not a strategy a user owns.
          guarded(APP_CHECKS, { path: '/ensembleSync/:id', ...page(() => import('../pages/trading/EnsembleSyncPage')) }),
          guarded(['auth', 'manage-accounts', 'update-mode'], { path: '/manageAccounts', ...page(() => import('../pages/account/ManageAccounts')) }),
          guarded(['auth'], { path: '/users/edit', ...page(() => import('../pages/account/UsersEdit')) }),
          guarded(['auth', 'user-management'], { path: '/users/list', ...page(() => import('../pages/account/UsersList')) }),
        ],
      },
      // error
      { lazy: lazyPage(() => import('../shell/ErrorLayout')), children: [{ path: '*', ...page(() => import('../pages/errors/NotFound')) }] },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

// The side menu of docs/PRODUCT.md section 6 and the rules the route checks read (docs: ARCHITECTURE.md,
// "The web app", Routes).

export type Role = 'trial' | 'basic' | 'advanced' | 'demo' | 'backtest' | 'manager' | 'administrator' | 'superadmin' | 'support';

export interface MenuEntry {
  readonly path: string;
  readonly label: string;
  readonly roles: readonly Role[] | 'all';
  /**
   * docs/PRODUCT.md section 2's hide-in-mode flag. Our rule (ARCHITECTURE.md): hidden while a manager acts
   * for a managed user, a mode about that user's trading (dashboard, strategies, subscriptions,
   * baskets), not the manager's own research and administration.
   */
  readonly hideInMode: boolean;
}

const RESEARCH: readonly Role[] = ['advanced', 'demo', 'administrator', 'manager', 'superadmin', 'backtest'];

/** docs/PRODUCT.md section 6, in the order of docs/PRODUCT.md section 2's side menu links. */
export const MENU: readonly MenuEntry[] = [
  { path: '/dashboard', label: 'Dashboard', roles: 'all', hideInMode: false },
  { path: '/chart', label: 'Chart', roles: ['administrator', 'manager', 'superadmin', 'advanced', 'demo', 'backtest'], hideInMode: true },
  { path: '/algo', label: 'Algo', roles: RESEARCH, hideInMode: true },
  { path: '/backtest', label: 'Backtest', roles: RESEARCH, hideInMode: true },
  { path: '/strategies', label: 'Strategies', roles: RESEARCH, hideInMode: false },
  { path: '/subscriptions', label: 'Subscriptions', roles: ['trial', 'administrator', 'basic', 'manager', 'superadmin', 'advanced', 'demo', 'backtest'], hideInMode: false },
  { path: '/userAccounts', label: 'User Accounts', roles: ['manager', 'superadmin', 'backtest'], hideInMode: true },
  { path: '/ensembleSync', label: 'Ensemble Sync', roles: ['administrator', 'superadmin'], hideInMode: true },
  { path: '/baskets', label: 'Baskets', roles: RESEARCH, hideInMode: false },
  { path: '/reports', label: 'Reports', roles: ['manager', 'superadmin'], hideInMode: true },
];

/** /payoff: handled for the research roles, shown in the menu only when the exchange is NSE (docs/PRODUCT.md section 2). */
export const PAYOFF_ENTRY: MenuEntry = { path: '/payoff', label: 'Payoff', roles: RESEARCH, hideInMode: true };

/** Roles that may act for the users they manage (the server honours x-hasura-managed-user-id for these). */
export const MANAGING_ROLES: readonly Role[] = ['manager', 'administrator', 'superadmin'];
/** Roles of /users/list (user management). */
export const USER_MANAGEMENT_ROLES: readonly Role[] = ['administrator', 'superadmin'];
/** Roles that open /users/list and other users' /users/edit: user management, plus support read-only with masked names. */
export const USER_LIST_ROLES: readonly Role[] = [...USER_MANAGEMENT_ROLES, 'support'];
/** docs/PRODUCT.md section 4: these roles see the dashboard in PAPER mode only. */
export const PAPER_ONLY_ROLES: readonly Role[] = ['demo', 'backtest'];

export function allows(entry: Pick<MenuEntry, 'roles'>, role: string | undefined): boolean {
  return role !== undefined && (entry.roles === 'all' || (entry.roles as readonly string[]).includes(role));
}

/** The entries a role sees; hide-in-mode entries go while acting for a managed user. */
export function visibleMenu(input: { role: string | undefined; exchange: string | undefined; actingForUser: boolean }): MenuEntry[] {
  const entries = MENU.filter((entry) => allows(entry, input.role) && !(input.actingForUser && entry.hideInMode));
  if (input.exchange === 'NSE' && allows(PAYOFF_ENTRY, input.role) && !input.actingForUser) entries.push(PAYOFF_ENTRY);
  return entries;
}

/** The menu entry (or payoff) that guards a path's role check. */
export function entryForPath(path: string): MenuEntry | undefined {
  const first = `/${path.split('/')[1] ?? ''}`;
  return [...MENU, PAYOFF_ENTRY].find((entry) => entry.path === first);
}

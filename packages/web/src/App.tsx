import { HOME_MARKET } from '@vyuha/market';
import { Landing } from './Landing';
import { NotFound } from './NotFound';

/** The app frame. Client routing and the auth screens arrive with the web shell. */
export function App() {
  const path = window.location.pathname;
  return path === '/' ? <Landing market={HOME_MARKET} /> : <NotFound path={path} />;
}

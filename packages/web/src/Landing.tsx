import type { HOME_MARKET } from '@vyuha/market';
import { useDeployedVersion } from './useDeployedVersion';

interface LandingProps {
  readonly market: typeof HOME_MARKET;
}

/** The public landing page at `/`. */
export function Landing({ market }: LandingProps) {
  const version = useDeployedVersion();
  return (
    <main className="landing">
      <h1>Vyuha</h1>
      <p className="tagline">Build, backtest and deploy options strategies on Indian exchanges.</p>
      <ul className="facts">
        <li>Backtests with real charges, real expiry and lot rules</li>
        <li>One engine for backtest, paper and live trading</li>
        <li>
          Markets: {market.exchanges.join(', ')} · {market.timeZone} · {market.marketOpen.slice(0, 5)}–{market.marketClose.slice(0, 5)}
        </li>
      </ul>
      <footer>{version ? `Version ${version}` : 'Checking version…'}</footer>
    </main>
  );
}

// /strategies and /strategies/:strategy_id: the user's algo strategies (Current/History,
// Active/All; create, deploy, pause, resume, stop, publish) and one strategy's detail.
import { StrategyScreen } from './parts/StrategyScreen';

export function Component() {
  return <StrategyScreen />;
}

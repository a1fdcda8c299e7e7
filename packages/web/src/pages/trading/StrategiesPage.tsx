// /strategies and /strategies/:strategy_id: the user's strategies (Active/All) and one strategy's
// detail with its runs and pause/resume.
import { StrategyScreen } from './parts/StrategyScreen';

export function Component() {
  return <StrategyScreen basePath="/strategies" titles={{ one: 'Strategy', many: 'Strategies', back: 'All strategies', empty: 'You have no strategies yet' }} />;
}

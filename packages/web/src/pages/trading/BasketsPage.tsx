// /baskets and /baskets/:strategy_id: strategies of kind 'basket' (Active/All) and one basket with
// its legs, the rest of its config, and its runs.
import { StrategyScreen } from './parts/StrategyScreen';

export function Component() {
  return <StrategyScreen kind="basket" basePath="/baskets" titles={{ one: 'Basket', many: 'Baskets', back: 'All baskets', empty: 'You have no baskets yet' }} />;
}

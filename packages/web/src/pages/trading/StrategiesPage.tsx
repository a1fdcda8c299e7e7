// /strategies: the user's algo strategies (Current/History, Active/All; create, deploy, pause,
// resume, stop, publish). One strategy's detail is its own page (StrategyDetailPage.tsx), so this
// list never loads the detail's chart and algorithm canvas.
import { StrategyScreen } from './parts/StrategyScreen';

export function Component() {
  return <StrategyScreen />;
}

// /backtest and /backtest/:strategy_id (spec section 2): the user's backtests with live run
// status, or one backtest's runs with their metrics and equity curves. The backtest form comes
// with the research workflow issue.
import { Loader, Stack, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { BacktestRuns } from './research/BacktestRuns';
import { BacktestStrategy } from './research/BacktestStrategy';
import { useActingUserId } from './research/use-window-starts';

export function Component() {
  const { strategy_id: strategyId } = useParams();
  const userId = useActingUserId();
  return (
    <Stack gap="md">
      <Title order={2}>Backtest</Title>
      {strategyId !== undefined ? <BacktestStrategy strategyId={strategyId} />
        : userId === undefined ? <Loader size="sm" /> : <BacktestRuns userId={userId} />}
    </Stack>
  );
}

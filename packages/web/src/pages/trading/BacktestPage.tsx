// /backtest and /backtest/:strategy_id (docs/PRODUCT.md section 2): the "New backtest" form above the user's
// backtests with live run status, or one backtest's runs with their results.
import { Loader, Stack, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { BacktestForm } from './backtest/form/BacktestForm';
import { BacktestRuns } from './research/BacktestRuns';
import { BacktestStrategy } from './research/BacktestStrategy';
import { useActingUserId } from './research/use-window-starts';

export function Component() {
  const { strategy_id: strategyId } = useParams();
  const userId = useActingUserId();
  if (strategyId !== undefined) {
    return (
      <Stack gap="md">
        <Title order={2}>Backtest</Title>
        <BacktestStrategy strategyId={strategyId} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>Backtest</Title>
      {userId === undefined ? <Loader size="sm" /> : (
        <>
          <BacktestForm userId={userId} />
          <Title order={3}>Your backtests</Title>
          <BacktestRuns userId={userId} />
        </>
      )}
    </Stack>
  );
}

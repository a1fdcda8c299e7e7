// /strategies/:strategy_id: one strategy's detail (StrategyDetail.tsx), live.
import { Stack, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { StrategyDetail } from './parts/StrategyDetail';

export function Component() {
  const { strategy_id: strategyId } = useParams();
  return (
    <Stack gap="md">
      <Title order={2}>Strategy</Title>
      {strategyId !== undefined && <StrategyDetail strategyId={strategyId} backPath="/strategies" backLabel="All strategies" />}
    </Stack>
  );
}

// /strategies and /strategies/:strategy_id: the user's algo strategies (Current/History,
// Active/All, live) and, with an id in the path, one strategy's detail (StrategyDetail.tsx).
import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { StrategyDetail } from './StrategyDetail';
import { StrategyList } from './StrategyList';
import { useSubject } from './use-subject';

const BASE_PATH = '/strategies';

export function StrategyScreen() {
  const { strategy_id: strategyId } = useParams();
  const { userId } = useSubject();
  if (strategyId) {
    return (
      <Stack gap="md">
        <Title order={2}>Strategy</Title>
        <StrategyDetail strategyId={strategyId} backPath={BASE_PATH} backLabel="All strategies" />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>Strategies</Title>
      {userId === undefined
        ? <Text c="dimmed">Signing in…</Text>
        : <StrategyList owner={userId} kind="algo" basePath={BASE_PATH} emptyText="You have no strategies yet" />}
    </Stack>
  );
}

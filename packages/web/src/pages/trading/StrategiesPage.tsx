// /strategies and /strategies/:strategy_id: the user's strategies (Active/All) and one strategy's
// detail with its runs and pause/resume.
import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { StrategyDetail } from './parts/StrategyDetail';
import { StrategyList } from './parts/StrategyList';
import { useSubject } from './parts/use-subject';

export function Component() {
  const { strategy_id: strategyId } = useParams();
  const { userId } = useSubject();
  if (strategyId) {
    return (
      <Stack gap="md">
        <Title order={2}>Strategy</Title>
        <StrategyDetail strategyId={strategyId} backPath="/strategies" backLabel="All strategies" />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>Strategies</Title>
      {userId === undefined
        ? <Text c="dimmed">Signing in…</Text>
        : <StrategyList owner={userId} basePath="/strategies" emptyText="You have no strategies yet" />}
    </Stack>
  );
}

// /baskets and /baskets/:strategy_id: strategies of kind 'basket' (Active/All) and one basket with
// its legs, the rest of its config, and its runs.
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
        <Title order={2}>Basket</Title>
        <StrategyDetail strategyId={strategyId} backPath="/baskets" backLabel="All baskets" />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>Baskets</Title>
      {userId === undefined
        ? <Text c="dimmed">Signing in…</Text>
        : <StrategyList owner={userId} kind="basket" basePath="/baskets" emptyText="You have no baskets yet" />}
    </Stack>
  );
}

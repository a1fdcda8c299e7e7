// /strategies: the user's algo strategies (Current/History, Active/All, live). One strategy's
// detail is StrategyDetailPage.tsx.
import { Stack, Text, Title } from '@mantine/core';
import { StrategyList } from './StrategyList';
import { useSubject } from './use-subject';

export function StrategyScreen() {
  const { userId } = useSubject();
  return (
    <Stack gap="md">
      <Title order={2}>Strategies</Title>
      {userId === undefined
        ? <Text c="dimmed">Signing in…</Text>
        : <StrategyList owner={userId} kind="algo" basePath="/strategies" emptyText="You have no strategies yet" />}
    </Stack>
  );
}

// A list of strategies (Active/All) and, with an id in the path, one strategy's detail: the screen
// of /strategies and of /baskets, which differ only in the kind they list and their words.
import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { StrategyDetail } from './StrategyDetail';
import { StrategyList } from './StrategyList';
import { useSubject } from './use-subject';

export interface StrategyScreenProps {
  /** Only strategies of this kind; every kind when absent. */
  readonly kind?: 'basket';
  readonly basePath: string;
  readonly titles: { readonly one: string; readonly many: string; readonly back: string; readonly empty: string };
}

export function StrategyScreen({ kind, basePath, titles }: StrategyScreenProps) {
  const { strategy_id: strategyId } = useParams();
  const { userId } = useSubject();
  if (strategyId) {
    return (
      <Stack gap="md">
        <Title order={2}>{titles.one}</Title>
        <StrategyDetail strategyId={strategyId} backPath={basePath} backLabel={titles.back} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>{titles.many}</Title>
      {userId === undefined
        ? <Text c="dimmed">Signing in…</Text>
        : <StrategyList owner={userId} {...(kind === undefined ? {} : { kind })} basePath={basePath} emptyText={titles.empty} />}
    </Stack>
  );
}

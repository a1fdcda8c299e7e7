// The credit and licence notice (docs/PRODUCT.md sections 3 and 4), from docs/PRODUCT.md section 7's subscriptions:
// backtest credits (BACKTEST/CANDLES, not expired) against the candles the runs used; strategy
// licences (deployed_strategies available/utilised, expiry from STRATEGIES/DEPLOYED credits).
import { Alert, Text } from '@mantine/core';
import { useSubscription } from 'urql';
import { creditNotice, licenceStatus, type LicenceStatus } from '../app/credit-alerts';
import { istToday } from '../format/date-ranges';
import { BACKTEST_CREDITS, DEPLOYED_STRATEGIES, STRATEGY_LICENCES, SWEPT_CANDLES, USED_CANDLES, usedCandles, type SweptCandlesData, type UsedCandlesData } from '../graphql/documents';

interface AggregateData {
  user_credits_aggregate: { aggregate: { sum?: { credits: number | null }; count?: number; max: { expiry: string | null; created_at: string | null } } | null };
}

function describe(name: string, status: LicenceStatus | undefined): string | undefined {
  if (!status || status.level === 'none') return undefined;
  return `${name}: ${status.percentUtilized}% used, ${status.daysLeft} day${status.daysLeft === 1 ? '' : 's'} left`;
}

export function CreditNotice({ userId }: { readonly userId: string | undefined }) {
  // Credits count only when their expiry is today or later (docs/PRODUCT.md section 5).
  const today = istToday();
  const pause = userId === undefined;
  const variables = { userId, today };
  const [backtest] = useSubscription<AggregateData>({ query: BACKTEST_CREDITS, variables, pause });
  const [used] = useSubscription<UsedCandlesData>({ query: USED_CANDLES, variables: { userId }, pause });
  const [swept] = useSubscription<SweptCandlesData>({ query: SWEPT_CANDLES, variables: { userId }, pause });
  const [deployed] = useSubscription<{ deployed_strategies: Array<{ available: number; utilized: number }> }>({ query: DEPLOYED_STRATEGIES, variables: { userId }, pause });
  const [licences] = useSubscription<AggregateData>({ query: STRATEGY_LICENCES, variables, pause });
  const backtestAggregate = backtest.data?.user_credits_aggregate.aggregate;
  const licenceAggregate = licences.data?.user_credits_aggregate.aggregate;
  const backtestStatus = licenceStatus({
    totalCredits: backtestAggregate?.sum?.credits ?? 0,
    utilizedCredits: usedCandles(used.data, swept.data) ?? 0,
    expireOn: backtestAggregate?.max.expiry ?? undefined,
    activatedOn: backtestAggregate?.max.created_at ?? undefined,
  }, today);
  const rows = deployed.data?.deployed_strategies ?? [];
  const strategyStatus = licenceStatus({
    totalCredits: rows.reduce((sum, row) => sum + row.available, 0),
    utilizedCredits: rows.reduce((sum, row) => sum + row.utilized, 0),
    expireOn: licenceAggregate?.max.expiry ?? undefined,
    activatedOn: licenceAggregate?.max.created_at ?? undefined,
  }, today);
  const level = creditNotice([backtestStatus, strategyStatus]);
  if (level === 'none') return null;
  const lines = [describe('Backtest credits', backtestStatus), describe('Strategy licences', strategyStatus)].filter((line): line is string => line !== undefined);
  return (
    <Alert color={level === 'critical' ? 'red' : 'yellow'} title={level === 'critical' ? 'Credits nearly exhausted' : 'Credits running low'} mb="md" data-testid="credit-notice">
      {lines.map((line) => <Text size="sm" key={line}>{line}</Text>)}
    </Alert>
  );
}

// One strategy, live (docs/PRODUCT.md sections 2 and 4): the header with its status, mode,
// instrument, interval, type, today's P&L and actions; then one of its PAPER or LIVE runs (the
// current one unless another is chosen, kept in ?run= so a link or reload keeps it): an ERROR
// run's reason in words, the instrument's chart with the run's entries and exits, its orders with
// their fills and charges, its positions, its equity and drawdown; the run history; the algorithm
// version it runs. Everything follows GraphQL subscriptions: nothing polls, nothing reloads.
import { Anchor, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSubscription } from 'urql';
import { QueryState } from './QueryState';
import { DetailHeader } from './strategy-detail/DetailHeader';
import { LazyAlgorithmSnapshot } from './strategy-detail/lazy-parts';
import { Section } from './strategy-detail/detail-bits';
import { pickRun, todayOf, TRADING_RUN_KINDS } from './strategy-detail/detail-model';
import { STRATEGY_SUBSCRIPTION, type DetailStrategyRow } from './strategy-detail/detail-queries';
import { RunHistory } from './strategy-detail/RunHistory';
import { RunSections } from './strategy-detail/RunSections';
import { paiseOf } from './trading-tables/orders-model';
import { useSubject } from './use-subject';

export interface StrategyDetailProps {
  readonly strategyId: string;
  /** Where the back link goes, e.g. '/baskets'. */
  readonly backPath: string;
  readonly backLabel: string;
}

/** Today's P&L after charges over the strategy's listed runs. */
function todayPaise(strategy: DetailStrategyRow): number {
  return strategy.strategy_runs.reduce((sum, run) => sum + run.today.reduce((day, row) => day + (paiseOf(row.pnl_paise) ?? 0), 0), 0);
}

export function StrategyDetail({ strategyId, backPath, backLabel }: StrategyDetailProps) {
  const subject = useSubject();
  const today = useMemo(() => todayOf(Date.now()), []);
  const where = useMemo(() => ({ kind: { _in: TRADING_RUN_KINDS } }), []);
  const [result] = useSubscription<{ strategies_by_pk: DetailStrategyRow | null }>({
    query: STRATEGY_SUBSCRIPTION, variables: { id: strategyId, runsWhere: where, today },
  });
  const [searchParams, setSearchParams] = useSearchParams();
  const strategy = result.data?.strategies_by_pk;
  const run = strategy ? pickRun(strategy.strategy_runs, searchParams.get('run')) : undefined;
  const choose = (runId: string): void => setSearchParams((params) => {
    const next = new URLSearchParams(params);
    next.set('run', runId);
    return next;
  }, { replace: true });
  const runCount = strategy?.strategy_runs_aggregate.aggregate?.count ?? 0;
  return (
    <Stack gap="md" data-testid="strategy-detail">
      <Anchor component={Link} to={backPath} size="sm">← {backLabel}</Anchor>
      <QueryState fetching={result.data === undefined} error={result.error} hasData={result.data !== undefined} title="Could not load the strategy">
        {!strategy ? (
          <Text c="dimmed">This strategy does not exist or is not visible to you.</Text>
        ) : (
          <>
            <DetailHeader strategy={strategy} todayPaise={todayPaise(strategy)} subject={subject} />
            {run !== undefined && <RunSections strategy={strategy} run={run} userId={strategy.user_id} />}
            <Section title="Run history" testId="detail-runs" extra={(
              <>
                <Text size="sm" c="dimmed">
                  {runCount > strategy.strategy_runs.length ? `Latest ${strategy.strategy_runs.length} of ${runCount} runs` : `${runCount} ${runCount === 1 ? 'run' : 'runs'}`} (paper and live)
                </Text>
              </>
            )}>
              <RunHistory runs={strategy.strategy_runs} selectedId={run?.run_id} onSelect={choose} />
            </Section>
            <Section title="Algorithm" testId="detail-algorithm">
              <LazyAlgorithmSnapshot algorithmId={strategy.algorithm_id} version={strategy.algorithm_version} name={strategy.algorithm?.name}
                config={strategy.config} editorLink={!subject.actingForUser} />
            </Section>
          </>
        )}
      </QueryState>
    </Stack>
  );
}

// One strategy (strategies_by_pk): its settings, its config, its runs with status icons, and the
// pause/resume action. Shared by /strategies/:strategy_id, /baskets/:strategy_id and /ensembleSync/:id.
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ConfigView } from './ConfigView';
import { QueryState } from './QueryState';
import { RunsTable, RUN_FIELDS, type RunRow } from './RunsTable';
import { StatusBadge } from './StatusBadge';
import { StrategyActions } from './StrategyActions';
import { dateTimeText } from './time';
import { useSubject } from './use-subject';

/** Most runs listed; the count above the table tells when there are more. */
const RUN_LIMIT = 100;

const STRATEGY_DETAIL = `query StrategyDetail($id: uuid!, $runsWhere: strategy_runs_bool_exp!) {
  strategies_by_pk(strategy_id: $id) {
    strategy_id user_id name kind mode status strategy_type interval_minutes published algo_id config
    created_at updated_at algorithm_version
    algorithm { name }
    instrument { trading_symbol exchange }
    strategy_runs(where: $runsWhere, order_by: [{ started_at: desc }], limit: ${RUN_LIMIT}) { ${RUN_FIELDS} }
    strategy_runs_aggregate(where: $runsWhere) { aggregate { count } }
  }
}`;

interface StrategyDetailRow {
  readonly strategy_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly kind: string;
  readonly mode: string;
  readonly status: string;
  readonly strategy_type: string;
  readonly interval_minutes: number;
  readonly published: boolean;
  readonly algo_id: string | null;
  readonly config: unknown;
  readonly created_at: string;
  readonly updated_at: string;
  readonly algorithm_version: number | null;
  readonly algorithm: { readonly name: string } | null;
  readonly instrument: { readonly trading_symbol: string; readonly exchange: string } | null;
  readonly strategy_runs: RunRow[];
  readonly strategy_runs_aggregate: { readonly aggregate: { readonly count: number } | null };
}

export interface StrategyDetailProps {
  readonly strategyId: string;
  /** Where the back link goes, e.g. '/baskets'. */
  readonly backPath: string;
  readonly backLabel: string;
  /** Extra filter on the runs listed (e.g. started on or after a date). */
  readonly runsWhere?: Record<string, unknown>;
  /** Rendered above the runs table (e.g. a date filter). */
  readonly runsToolbar?: ReactNode;
}

function Field({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase">{label}</Text>
      <Text size="sm" component="div">{children}</Text>
    </Stack>
  );
}

export function StrategyDetail({ strategyId, backPath, backLabel, runsWhere, runsToolbar }: StrategyDetailProps) {
  const subject = useSubject();
  const [result, reexecute] = useQuery<{ strategies_by_pk: StrategyDetailRow | null }>({
    query: STRATEGY_DETAIL,
    variables: { id: strategyId, runsWhere: runsWhere ?? {} },
  });
  const strategy = result.data?.strategies_by_pk;
  const runCount = strategy?.strategy_runs_aggregate.aggregate?.count ?? 0;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={backPath} size="sm">← {backLabel}</Anchor>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the strategy">
        {!strategy ? (
          <Text c="dimmed">This strategy does not exist or is not visible to you.</Text>
        ) : (
          <>
            <Group gap="sm">
              <Title order={3}>{strategy.name}</Title>
              <StatusBadge status={strategy.status} />
              <Badge variant="light" color={strategy.mode === 'LIVE' ? 'orange' : 'gray'}>{strategy.mode}</Badge>
              {strategy.published && <Badge variant="outline">Published</Badge>}
            </Group>
            <Paper withBorder p="md">
              <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md">
                <Field label="Kind">{strategy.kind}</Field>
                <Field label="Type">{strategy.strategy_type}</Field>
                <Field label="Instrument">
                  {strategy.instrument ? `${strategy.instrument.trading_symbol} (${strategy.instrument.exchange})` : '—'}
                </Field>
                <Field label="Interval">{strategy.interval_minutes} min</Field>
                <Field label="Algorithm">
                  {strategy.algorithm ? `${strategy.algorithm.name} v${strategy.algorithm_version ?? '?'}` : '—'}
                </Field>
                <Field label="Exchange algo id">{strategy.algo_id ?? '—'}</Field>
                <Field label="Created">{dateTimeText(strategy.created_at)}</Field>
                <Field label="Updated">{dateTimeText(strategy.updated_at)}</Field>
              </SimpleGrid>
            </Paper>
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={4}>Actions</Title>
                <StrategyActions subject={subject} strategy={strategy} onChanged={() => reexecute({ requestPolicy: 'network-only' })} />
              </Stack>
            </Paper>
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Title order={4}>Configuration</Title>
                <ConfigView config={strategy.config} />
              </Stack>
            </Paper>
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Group justify="space-between">
                  <Title order={4}>Runs</Title>
                  <Text size="sm" c="dimmed">
                    {runCount > strategy.strategy_runs.length ? `Latest ${strategy.strategy_runs.length} of ${runCount}` : `${runCount} ${runCount === 1 ? 'run' : 'runs'}`}
                  </Text>
                </Group>
                {runsToolbar}
                <RunsTable runs={strategy.strategy_runs} />
              </Stack>
            </Paper>
          </>
        )}
      </QueryState>
    </Stack>
  );
}

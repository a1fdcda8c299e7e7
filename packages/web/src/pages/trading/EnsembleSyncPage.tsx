// /ensembleSync and /ensembleSync/:id (administrator, superadmin): strategies of kind 'ensemble'
// of every user (staff read all rows) and one ensemble with its runs since a date. docs/PRODUCT.md section 9:
// the minimum ensemble sync date is 2021-01-01, the earliest date the picker offers.
import { Stack, Text, TextInput, Title } from '@mantine/core';
import { isoDate, istMidnightMs } from '@vyuha/core';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { asIsoDate, istToday } from '../../format/date-ranges';
import { StrategyDetail } from './parts/StrategyDetail';
import { StrategyList } from './parts/StrategyList';

/** docs/PRODUCT.md section 9. */
const MIN_ENSEMBLE_SYNC_DATE = isoDate('2021-01-01');

function EnsembleDetail({ id }: { readonly id: string }) {
  const [since, setSince] = useState<string>(MIN_ENSEMBLE_SYNC_DATE);
  const today = istToday();
  const chosen = asIsoDate(since);
  const valid = chosen !== undefined && chosen >= MIN_ENSEMBLE_SYNC_DATE && chosen <= today;
  // Runs started on or after 00:00 IST of the chosen date.
  const start = chosen !== undefined && valid ? chosen : MIN_ENSEMBLE_SYNC_DATE;
  const runsWhere = useMemo(() => ({ started_at: { _gte: new Date(istMidnightMs(start)).toISOString() } }), [start]);
  const toolbar = (
    <TextInput
      type="date"
      label="Runs since"
      description={`Earliest sync date ${MIN_ENSEMBLE_SYNC_DATE}`}
      value={since}
      min={MIN_ENSEMBLE_SYNC_DATE}
      max={today}
      w={220}
      error={valid ? undefined : `Choose a date from ${MIN_ENSEMBLE_SYNC_DATE} to ${today}`}
      onChange={(event) => setSince(event.currentTarget.value)}
    />
  );
  return <StrategyDetail strategyId={id} backPath="/ensembleSync" backLabel="All ensembles" runsWhere={runsWhere} runsToolbar={toolbar} />;
}

export function Component() {
  const { id } = useParams();
  if (id) {
    return (
      <Stack gap="md">
        <Title order={2}>Ensemble</Title>
        <EnsembleDetail id={id} />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2}>Ensemble Sync</Title>
      <Text size="sm" c="dimmed">Ensemble strategies of every user.</Text>
      <StrategyList owner="everyone" kind="ensemble" basePath="/ensembleSync" emptyText="No ensemble strategies" />
    </Stack>
  );
}

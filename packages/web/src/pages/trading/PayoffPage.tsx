// /payoff (docs/PRODUCT.md sections 2 and 3; shown in the menu only while the exchange setting is
// NSE, app/menu.ts): the payoff of an index's positions for one expiry, at expiry and at a chosen
// day before it, with breakevens, maximum profit and loss, the probability of profit and the
// greeks, every number from the engine (payoff/payoff-analysis.ts). Positions come from the
// user's open PAPER/LIVE positions, the /chart option chain's selection, or are typed in; they are
// stored per index on the server, and any change replaces that one index's set
// (payoff/payoff-storage.ts). The spot is the index's one last price (parts/use-last-prices.ts).
import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { availableIndices, groupPositions, type PayoffPosition, type PayoffPositionGroup } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { showToast } from '../../app/toast';
import { useLastPrices } from './parts/use-last-prices';
import { PayoffAnalysis } from './payoff/PayoffAnalysis';
import { PayoffGroupCard } from './payoff/PayoffGroupCard';
import { PayoffSources } from './payoff/PayoffSources';
import { usePayoffPositions } from './payoff/use-payoff-positions';
import { PayoffLegForm, type PayoffIndex } from './research/PayoffLegForm';
import { QueryError } from './research/query-feedback';
import { useActingUserId } from './research/use-window-starts';

const INDICES_QUERY = `
  query PayoffIndices {
    index_configs(order_by: { sort_order: asc }) { id name value oc_step instrument_id }
    vix: instruments(where: { kind: { _eq: "index" }, name: { _eq: "INDIA VIX" } }) { instrument_id }
  }`;

const groupKey = (group: { indice: string; expiry: string }): string => JSON.stringify([group.indice, group.expiry]);

function PayoffScreen({ userId }: { readonly userId: string }) {
  const [result] = useQuery<{ index_configs: PayoffIndex[]; vix: Array<{ instrument_id: number }> }>({ query: INDICES_QUERY });
  const indices = useMemo(() => result.data?.index_configs ?? [], [result.data]);
  const vixId = result.data?.vix[0]?.instrument_id;
  const lastPrices = useLastPrices([...indices.map((index) => index.instrument_id), vixId]);
  const stored = usePayoffPositions(userId);
  const [now] = useState(() => Date.now());
  const [selectedKey, setSelectedKey] = useState<string | undefined>(undefined);
  const positions = useMemo(() => stored.positions ?? [], [stored.positions]);
  const groups = useMemo(() => groupPositions(positions), [positions]);
  const selected = groups.find((group) => groupKey(group) === selectedKey) ?? groups[0];

  const replace = async (indice: string, replacement: readonly PayoffPosition[], focus?: { indice: string; expiry: string }): Promise<void> => {
    const failure = await stored.replaceIndex(indice, replacement);
    if (failure !== undefined) showToast('error', failure);
    else if (focus !== undefined) setSelectedKey(groupKey(focus));
  };
  const add = (position: PayoffPosition, replaceAll: boolean): void => {
    const kept = replaceAll ? [] : positions.filter((existing) => existing.indice === position.indice);
    void replace(position.indice, [...kept, position], position);
  };
  const remove = (position: PayoffPosition): void => {
    void replace(position.indice, positions.filter((existing) => existing.indice === position.indice && existing !== position));
  };
  const fromSource = (indice: string, replacement: readonly PayoffPosition[]): void => {
    void replace(indice, replacement, replacement[0]);
  };
  const spotOf = (indice: string) => {
    const index = indices.find((row) => row.name === indice);
    return index === undefined ? undefined : lastPrices.prices.get(index.instrument_id);
  };
  const vix = vixId === undefined ? undefined : lastPrices.prices.get(vixId)?.rupees;

  const analysis = (group: PayoffPositionGroup) => {
    const spot = spotOf(group.indice);
    if (spot === undefined) return <Alert color="yellow" variant="light">No last price for {group.indice} yet: the payoff needs the index's level.</Alert>;
    return <PayoffAnalysis key={groupKey(group)} group={group} spot={spot} vix={vix} now={now} />;
  };

  return (
    <Stack gap="md">
      <Title order={2}>Payoff</Title>
      <QueryError error={result.error} title="Could not load the indices" />
      <QueryError error={lastPrices.error} title="Could not load the last prices" />
      <QueryError error={stored.error} title="Could not load your payoff positions" />
      {stored.handOverError !== undefined && <Alert color="red" variant="light">{stored.handOverError}</Alert>}
      {(result.fetching && result.data === undefined) || stored.positions === undefined ? <Loader size="sm" /> : null}
      {indices.length > 0 && (
        <Paper withBorder p="sm">
          <Stack gap="md">
            <PayoffLegForm indices={indices} lastPrices={lastPrices.prices} onAdd={add} />
            <PayoffSources userId={userId} indices={indices} busy={stored.saving} onReplace={fromSource} />
          </Stack>
        </Paper>
      )}
      {stored.positions !== undefined && groups.length === 0 && <Text c="dimmed" data-testid="payoff-empty">No positions yet: add a leg above, or take your open positions or the option chain's selection.</Text>}
      {groups.length > 0 && (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">Indices:</Text>
          {availableIndices(positions).map((indice) => (
            <Button key={indice} size="compact-xs" variant="subtle" color="red" disabled={stored.saving} onClick={() => void replace(indice, [])}
              data-testid="payoff-clear-index">Clear {indice}</Button>
          ))}
        </Group>
      )}
      {groups.map((group) => {
        const open = selected !== undefined && groupKey(selected) === groupKey(group);
        return (
          <PayoffGroupCard key={groupKey(group)} group={group} open={open} busy={stored.saving} onOpen={() => setSelectedKey(groupKey(group))} onRemove={remove}>
            {open && analysis(group)}
          </PayoffGroupCard>
        );
      })}
    </Stack>
  );
}

export function Component() {
  const userId = useActingUserId();
  return userId === undefined ? <Loader size="sm" /> : <PayoffScreen userId={userId} />;
}

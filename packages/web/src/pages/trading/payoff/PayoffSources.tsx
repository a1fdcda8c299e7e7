// Where an index's payoff positions can come from besides typing them: the user's open positions
// (PAPER and LIVE runs, use-live-positions.ts) and the /chart option chain's selection
// (chart/option-chain-selection.ts). Either replaces that index's stored set.
import { Button, Group, List, Select, Stack, Text } from '@mantine/core';
import type { PayoffPosition } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { toPayoffPositions, useOptionSelectionStore, type SelectedOption } from '../chart/option-chain-selection';
import type { PayoffIndex } from '../research/PayoffLegForm';
import { QueryError } from '../research/query-feedback';
import { livePositionLegs } from './payoff-legs';
import { useLivePositions } from './use-live-positions';

const NO_SELECTION: readonly SelectedOption[] = [];

export interface PayoffSourcesProps {
  readonly userId: string;
  readonly indices: readonly PayoffIndex[];
  readonly busy: boolean;
  readonly onReplace: (indice: string, positions: readonly PayoffPosition[]) => void;
}

export function PayoffSources({ userId, indices, busy, onReplace }: PayoffSourcesProps) {
  const [indexId, setIndexId] = useState<string | null>(null);
  const index = indices.find((row) => row.id === indexId) ?? indices[0];
  const live = useLivePositions(userId, index?.instrument_id);
  const selection = useOptionSelectionStore((state) => (index === undefined ? NO_SELECTION : state.byUnderlying[index.value] ?? NO_SELECTION));
  const liveLegs = useMemo(
    () => (index === undefined || live.rows === undefined ? undefined : livePositionLegs(live.rows, { indice: index.name, timestamp: 0 })),
    [index, live.rows],
  );
  if (index === undefined) return null;
  const takeLive = (): void => {
    if (live.rows !== undefined) onReplace(index.name, livePositionLegs(live.rows, { indice: index.name, timestamp: Date.now() }).positions);
  };
  const takeSelection = (): void => onReplace(index.name, toPayoffPositions(selection, { indice: index.name, timestamp: Date.now() }));
  const liveCount = liveLegs?.positions.length;
  return (
    <Stack gap="xs" data-testid="payoff-sources">
      <QueryError error={live.error} title="Could not follow your open positions" />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select label="Replace positions of" w={190} allowDeselect={false} data-testid="payoff-source-index"
          data={indices.map((row) => ({ value: row.id, label: row.name }))} value={index.id} onChange={setIndexId} />
        <Button variant="light" disabled={busy || liveCount === undefined || liveCount === 0} onClick={takeLive} data-testid="payoff-use-live">
          with my open positions{liveCount === undefined ? '' : ` (${liveCount})`}
        </Button>
        <Button variant="light" disabled={busy || selection.length === 0} onClick={takeSelection} data-testid="payoff-use-chain">
          with the option chain's selection ({selection.length})
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Open positions: option and futures contracts on {index.name} held by your PAPER and LIVE strategies (backtests are never counted),
        at their average price. The option chain's selection: what you picked on /chart, at the chain's prices.
      </Text>
      {liveLegs !== undefined && liveLegs.skipped.length > 0 && (
        <List size="xs" c="dimmed">
          {liveLegs.skipped.map((skip) => <List.Item key={skip.tradingSymbol}>{skip.tradingSymbol} left out: {skip.reason}</List.Item>)}
        </List>
      )}
    </Stack>
  );
}

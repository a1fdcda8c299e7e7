// The line under a run's title saying what it traded (traded-summary.ts), with a "Model prices"
// badge when the cost-of-carry model priced a futures contract, as the option chain marks its
// synthetic quotes.
import { Badge, Group, Text } from '@mantine/core';
import { tradedSummaryOf } from './traded-summary';

export function TradedSummaryLine({ result }: { readonly result: unknown }) {
  const summary = tradedSummaryOf(result);
  if (summary === undefined) return null;
  return (
    <Group gap="xs" data-testid="bt-traded">
      <Text size="sm" c="dimmed">Traded: {summary.text}</Text>
      {summary.modelPrices && (
        <Badge variant="light" color="gray" data-testid="bt-model-prices"
          title={`Fair value from the index: cost of carry at ${summary.modelRatePercent ?? '-'}% a year to the contract's expiry; no futures candles were stored`}>
          Model prices
        </Badge>
      )}
    </Group>
  );
}

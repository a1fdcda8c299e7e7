// /baskets and /baskets/:strategy_id (docs/PRODUCT.md section 2): the saved baskets, and one
// basket to edit, preview and place on paper (pages/trading/baskets/).
import { Stack, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { BasketDetail } from './baskets/BasketDetail';
import { BasketList } from './baskets/BasketList';

export function Component() {
  const { strategy_id: strategyId } = useParams();
  return (
    <Stack gap="md">
      <Title order={2}>{strategyId === undefined ? 'Baskets' : 'Basket'}</Title>
      {strategyId === undefined ? <BasketList /> : <BasketDetail key={strategyId} strategyId={strategyId} />}
    </Stack>
  );
}

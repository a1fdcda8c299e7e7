// Square off one position or all, after a confirmation that says what happens: each position's
// strategy is stopped with its square-off (the server's `square_off_positions`), so its run closes
// what it holds at market and ends; the strategy is deployed again from /strategies. A basket
// placement's position is closed at market on its own: a PAPER basket's at once, a LIVE one's by
// a MARKET order the strategy worker holding the broker account sends to the broker.
import { List, Stack, Text } from '@mantine/core';
import { useMutation } from 'urql';
import { confirm } from '../../../../app/confirm';
import { showToast } from '../../../../app/toast';
import { errorMessage } from '../QueryState';
import { squareOffPlan } from './position-rows';
import type { PositionLine } from './position-rows';

const SQUARE_OFF = `mutation SquareOffPositions($positions: [position_key!]!) {
  square_off_positions(positions: $positions) { strategies { strategy_id run_id } }
}`;

function ConfirmMessage({ lines }: { readonly lines: readonly PositionLine[] }) {
  const plan = squareOffPlan(lines);
  const live = plan.baskets.some((basket) => basket.live);
  return (
    <Stack gap="xs">
      {plan.strategies.length > 0 && (
        <>
          <Text size="sm">
            This stops {plan.strategies.length === 1 ? 'this strategy' : `these ${plan.strategies.length} strategies`} and squares off
            every position of {plan.strategies.length === 1 ? 'its run' : 'their runs'} at market now:
          </Text>
          <List size="sm">
            {plan.strategies.map((strategy) => <List.Item key={strategy.name}>{strategy.name}: {strategy.symbols.join(', ')}</List.Item>)}
          </List>
          <Text size="sm" c="dimmed">The run ends; deploy the strategy again from Strategies to trade it.</Text>
        </>
      )}
      {plan.baskets.length > 0 && (
        <>
          <Text size="sm">
            This closes {plan.baskets.length === 1 ? "the basket's position" : "these baskets' positions"} at market
            {live ? ' through the broker (a MARKET order to Zerodha)' : ''} now:
          </Text>
          <List size="sm" data-testid="square-off-baskets">
            {plan.baskets.map((basket) => (
              <List.Item key={basket.name + basket.symbols.join()}>{basket.name}{basket.live ? ' (LIVE)' : ''}: {basket.symbols.join(', ')}</List.Item>
            ))}
          </List>
          {live && <Text size="sm" c="dimmed">The order is sent by the strategy worker holding your broker account; the position shows flat once Zerodha fills it.</Text>}
        </>
      )}
    </Stack>
  );
}

/** `squareOff(lines)`: confirms, asks the server, and toasts the outcome; true when the server took it. */
export function useSquareOff(): { squareOff: (lines: readonly PositionLine[]) => Promise<boolean>; busy: boolean } {
  const [state, run] = useMutation<{ square_off_positions: { strategies: Array<{ strategy_id: string }> } | null }>(SQUARE_OFF);
  async function squareOff(lines: readonly PositionLine[]): Promise<boolean> {
    if (lines.length === 0) return false;
    const accepted = await confirm({
      title: lines.length === 1 ? `Square off ${lines[0]?.symbol ?? ''}` : `Square off all ${lines.length} positions`,
      message: <ConfirmMessage lines={lines} />,
      acceptLabel: 'Square off',
      rejectLabel: 'Cancel',
      danger: true,
    });
    if (!accepted) return false;
    const result = await run({ positions: squareOffPlan(lines).keys });
    if (result.error || !result.data?.square_off_positions) {
      showToast('error', result.error ? errorMessage(result.error) : 'The square-off was not accepted.');
      return false;
    }
    showToast('success', `Squaring off: ${result.data.square_off_positions.strategies.length} run(s) closing at market.`);
    return true;
  }
  return { squareOff, busy: state.fetching };
}

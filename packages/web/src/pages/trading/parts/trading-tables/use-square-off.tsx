// Square off one position or all, after a confirmation that says what happens: each position's
// strategy is stopped with its square-off (the server's `square_off_positions`), so its run closes
// what it holds at market and ends; the strategy is deployed again from /strategies.
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
  return (
    <Stack gap="xs">
      <Text size="sm">
        This stops {plan.strategies.length === 1 ? 'this strategy' : `these ${plan.strategies.length} strategies`} and squares off
        every position of {plan.strategies.length === 1 ? 'its run' : 'their runs'} at market now:
      </Text>
      <List size="sm">
        {plan.strategies.map((strategy) => <List.Item key={strategy.name}>{strategy.name}: {strategy.symbols.join(', ')}</List.Item>)}
      </List>
      <Text size="sm" c="dimmed">The run ends; deploy the strategy again from Strategies to trade it.</Text>
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
    showToast('success', `Squaring off: ${result.data.square_off_positions.strategies.length} strategy run(s) closing at market.`);
    return true;
  }
  return { squareOff, busy: state.fetching };
}

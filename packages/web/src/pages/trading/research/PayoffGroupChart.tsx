// The payoff at expiry of one index-and-expiry group of positions, from the engine: the curve
// (payoffCurve), its breakevens (marked) and the maximum profit and loss (profitAndLossBounds).
import { Alert, Group, Stack, Text } from '@mantine/core';
import { breakevens, payoffCurve, profitAndLossBounds, type PayoffPositionGroup, type ProfitAndLossBounds } from '@vyuha/engine';
import { useMemo } from 'react';
import { formatRupeesAmount } from '../../../format/format';
import { LineChart, type LineChartMarker } from './LineChart';

/** Points on the curve besides the strikes the engine adds. */
const CURVE_STEPS = 240;
/** The chart reaches this far beyond the outermost strike (or the last price). */
const RANGE_MARGIN = 0.08;
const LEVEL = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

const rupees = (value: number): string => formatRupeesAmount(value);
const boundText = (value: ProfitAndLossBounds['maxProfit']): string => (value === 'unlimited' ? 'Unlimited' : rupees(value));

interface PayoffView {
  readonly xs: number[];
  readonly ys: number[];
  readonly breakevens: number[];
  readonly bounds: ProfitAndLossBounds;
}

function payoffView(group: PayoffPositionGroup, spot: number | undefined): PayoffView | string {
  const strikes = group.positions.map((position) => position.strike ?? 0).filter((strike) => strike > 0);
  const levels = spot === undefined ? strikes : [...strikes, spot];
  const low = Math.min(...levels);
  const high = Math.max(...levels);
  const pad = Math.max((high + low) / 2 * RANGE_MARGIN, 1);
  try {
    const curve = payoffCurve(group.positions, { from: Math.max(0, low - pad), to: high + pad, steps: CURVE_STEPS });
    return { xs: curve.map((point) => point.spot), ys: curve.map((point) => point.atExpiry), breakevens: breakevens(group.positions), bounds: profitAndLossBounds(group.positions) };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The chart and its figures; `spot` (the index's last price, rupees) is marked when known. */
export function PayoffGroupChart({ group, spot }: { readonly group: PayoffPositionGroup; readonly spot: number | undefined }) {
  const view = useMemo(() => payoffView(group, spot), [group, spot]);
  if (typeof view === 'string') return <Alert color="red" variant="light" title="Cannot draw this payoff">{view}</Alert>;
  const markers: LineChartMarker[] = view.breakevens.map((level) => ({ x: level, label: `BE ${LEVEL.format(level)}` }));
  const first = view.xs[0] ?? 0;
  const last = view.xs[view.xs.length - 1] ?? 0;
  if (spot !== undefined && spot >= first && spot <= last) markers.push({ x: spot, label: 'Last price' });
  return (
    <Stack gap="xs">
      <Group gap="xl">
        <Text size="sm">Max profit <Text span fw={600} c="teal">{boundText(view.bounds.maxProfit)}</Text></Text>
        <Text size="sm">Max loss <Text span fw={600} c="red">{boundText(view.bounds.maxLoss)}</Text></Text>
        <Text size="sm">Breakevens <Text span fw={600}>{view.breakevens.length === 0 ? 'none' : view.breakevens.map((level) => LEVEL.format(level)).join(', ')}</Text></Text>
      </Group>
      <LineChart xs={view.xs} ys={view.ys} zeroLine markers={markers} height={300}
        formatX={(level) => LEVEL.format(Math.round(level))} formatY={(value) => formatRupeesAmount(value, { compact: true })}
        title={`Payoff at expiry of ${group.indice} ${group.expiry}`} />
    </Stack>
  );
}

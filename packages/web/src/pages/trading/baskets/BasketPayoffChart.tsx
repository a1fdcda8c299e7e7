// The basket's payoff drawn on lightweight-charts' options chart (its horizontal axis is the index
// level): the P&L at expiry, solid, and today's (Black-76), dashed. The points are the engine's
// (basket-payoff.ts); this only draws them, in the theme's colours.
import { Box, Group, Text, useComputedColorScheme } from '@mantine/core';
import type { PayoffPoint } from '@vyuha/engine';
import { createOptionsChart, LineSeries, LineStyle, type IChartApiBase, type ISeriesApi } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { formatRupeesAmount } from '../../../format/format';

const COLOURS = {
  dark: { background: '#1a1b1e', text: '#c1c2c5', grid: '#2c2e33', expiry: '#4dabf7', today: '#fcc419' },
  light: { background: '#ffffff', text: '#212529', grid: '#e9ecef', expiry: '#1971c2', today: '#d9480f' },
} as const;

interface Chart {
  readonly chart: IChartApiBase<number>;
  readonly expiry: ISeriesApi<'Line', number>;
  readonly today: ISeriesApi<'Line', number>;
}

export function BasketPayoffChart({ points, height = 260 }: { readonly points: readonly PayoffPoint[]; readonly height?: number }) {
  const scheme = useComputedColorScheme('dark');
  const colours = COLOURS[scheme];
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | undefined>(undefined);

  useEffect(() => {
    const box = boxRef.current;
    if (box === null) return undefined;
    const chart = createOptionsChart(box, {
      autoSize: true, handleScroll: false, handleScale: false, rightPriceScale: { borderVisible: false },
      localization: { priceFormatter: (value: number) => formatRupeesAmount(value, { compact: true }), timeFormatter: (level: number) => level.toFixed(0) },
    });
    const expiry = chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
    const today = chart.addSeries(LineSeries, { lineWidth: 2, lineStyle: LineStyle.Dashed, priceLineVisible: false, lastValueVisible: false });
    expiry.createPriceLine({ price: 0, color: '#868e96', lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: false, title: '' });
    chartRef.current = { chart, expiry, today };
    // The whole curve stays in view whatever the width (a phone, a resized window).
    const resized = new ResizeObserver(() => chart.timeScale().fitContent());
    resized.observe(box);
    return () => {
      resized.disconnect();
      chartRef.current = undefined;
      chart.remove();
    };
  }, []);

  useEffect(() => {
    const parts = chartRef.current;
    if (parts === undefined) return;
    parts.chart.applyOptions({ layout: { background: { color: colours.background }, textColor: colours.text }, grid: { vertLines: { color: colours.grid }, horzLines: { color: colours.grid } } });
    parts.expiry.applyOptions({ color: colours.expiry });
    parts.today.applyOptions({ color: colours.today });
    parts.expiry.setData(points.map((point) => ({ time: point.spot, value: point.atExpiry })));
    parts.today.setData(points.flatMap((point) => (point.beforeExpiry === undefined ? [] : [{ time: point.spot, value: point.beforeExpiry }])));
    parts.chart.timeScale().fitContent();
  }, [points, colours]);

  return (
    <Box>
      <Group gap="md" mb={4} wrap="wrap">
        <Text size="xs"><Box component="span" c={colours.expiry} fw={700}>━</Box> At expiry</Text>
        <Text size="xs"><Box component="span" c={colours.today} fw={700}>╍</Box> Today (Black-76)</Text>
      </Group>
      <Box ref={boxRef} h={height} w="100%" data-testid="basket-payoff-chart" role="img" aria-label="Basket payoff at expiry and today against the index level" />
    </Box>
  );
}

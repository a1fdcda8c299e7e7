// The payoff chart (lightweight-charts' options chart: the horizontal scale is the index level):
// the P&L at expiry and at the valuation moment, a zero line, the spot and the breakevens marked.
// The points come from payoff-analysis.ts (the engine's payoffCurve); nothing is computed here.
import { Box, Group, Text, useComputedColorScheme } from '@mantine/core';
import type { PayoffPoint } from '@vyuha/engine';
import {
  createOptionsChart, createSeriesMarkers, LineSeries, LineStyle, type IChartApiBase, type ISeriesApi, type ISeriesMarkersPluginApi, type SeriesMarker,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { formatRupeesAmount } from '../../../format/format';
import { nearestPoint } from './payoff-analysis';
import { levelText } from './payoff-format';

interface Palette {
  readonly background: string;
  readonly text: string;
  readonly grid: string;
  readonly expiry: string;
  readonly today: string;
  readonly spot: string;
  readonly breakeven: string;
}

const PALETTE: Readonly<Record<'dark' | 'light', Palette>> = {
  dark: { background: '#1a1b1e', text: '#c1c2c5', grid: '#2c2e33', expiry: '#4dabf7', today: '#fab005', spot: '#e599f7', breakeven: '#adb5bd' },
  light: { background: '#ffffff', text: '#212529', grid: '#e9ecef', expiry: '#1c7ed6', today: '#e8590c', spot: '#ae3ec9', breakeven: '#495057' },
};

export interface PayoffChartProps {
  readonly points: readonly PayoffPoint[];
  readonly spot: number;
  readonly breakevens: readonly number[];
  /** Says what the second line is valued at (e.g. "On 2026-11-28"). */
  readonly todayLabel: string;
  readonly height?: number;
}

interface ChartParts {
  readonly chart: IChartApiBase<number>;
  readonly expiry: ISeriesApi<'Line', number>;
  readonly today: ISeriesApi<'Line', number>;
  readonly markers: ISeriesMarkersPluginApi<number>;
}

function markersOf(props: PayoffChartProps, colors: Palette): SeriesMarker<number>[] {
  const marks: SeriesMarker<number>[] = [];
  const spotPoint = nearestPoint(props.points, props.spot);
  if (spotPoint !== undefined) marks.push({ time: spotPoint.spot, position: 'belowBar', shape: 'arrowUp', color: colors.spot, text: `Spot ${levelText(props.spot)}` });
  for (const level of props.breakevens) {
    const point = nearestPoint(props.points, level);
    if (point !== undefined && level >= (props.points[0]?.spot ?? 0) && level <= (props.points[props.points.length - 1]?.spot ?? 0)) {
      marks.push({ time: point.spot, position: 'aboveBar', shape: 'circle', color: colors.breakeven, text: `BE ${levelText(level)}` });
    }
  }
  return marks.sort((a, b) => a.time - b.time);
}

export function PayoffChart(props: PayoffChartProps) {
  const { points, height = 320, todayLabel } = props;
  const scheme = useComputedColorScheme('dark');
  const colors = PALETTE[scheme];
  const containerRef = useRef<HTMLDivElement>(null);
  const partsRef = useRef<ChartParts | undefined>(undefined);

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return undefined;
    const chart = createOptionsChart(container, {
      autoSize: true,
      localization: { priceFormatter: (value: number) => formatRupeesAmount(value, { compact: true }), timeFormatter: (level: number) => levelText(level) },
      rightPriceScale: { borderVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    const expiry = chart.addSeries(LineSeries, { lineWidth: 2, priceLineVisible: false, lastValueVisible: false });
    const today = chart.addSeries(LineSeries, { lineWidth: 2, lineStyle: LineStyle.Dashed, priceLineVisible: false, lastValueVisible: false });
    expiry.createPriceLine({ price: 0, color: '#868e96', lineWidth: 1, lineStyle: LineStyle.Dotted, axisLabelVisible: false, title: '' });
    partsRef.current = { chart, expiry, today, markers: createSeriesMarkers(expiry, []) };
    // Scrolling and zooming are off, so the whole curve is always in view: refit after the
    // library has taken the new size (a phone turning, a theme change reflowing the page).
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => chart.timeScale().fitContent());
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
      partsRef.current = undefined;
      chart.remove();
    };
  }, []);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return;
    parts.chart.applyOptions({
      layout: { background: { color: colors.background }, textColor: colors.text },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    });
    parts.expiry.applyOptions({ color: colors.expiry });
    parts.today.applyOptions({ color: colors.today });
  }, [colors]);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return;
    parts.expiry.setData(points.map((point) => ({ time: point.spot, value: point.atExpiry })));
    parts.today.setData(points.flatMap((point) => (point.beforeExpiry === undefined ? [] : [{ time: point.spot, value: point.beforeExpiry }])));
    parts.markers.setMarkers(markersOf(props, colors));
    parts.chart.timeScale().fitContent();
    if (containerRef.current !== null) containerRef.current.dataset.points = String(points.length);
  }, [points, props, colors]);

  const hasToday = points.some((point) => point.beforeExpiry !== undefined);
  return (
    <Box>
      <Group gap="md" mb={4} wrap="wrap">
        <Text size="xs"><Box component="span" c={colors.expiry} fw={700}>━</Box> At expiry</Text>
        {hasToday && <Text size="xs"><Box component="span" c={colors.today} fw={700}>╍</Box> {todayLabel}</Text>}
        <Text size="xs"><Box component="span" c={colors.spot} fw={700}>▲</Box> Spot</Text>
        <Text size="xs"><Box component="span" c={colors.breakeven} fw={700}>●</Box> Breakeven</Text>
      </Group>
      <Box ref={containerRef} h={height} w="100%" data-testid="payoff-chart" role="img" aria-label="Payoff at expiry and today against the index level" />
    </Box>
  );
}

// A self-contained candlestick chart on lightweight-charts 5: candles, optional algorithm signal
// markers, indicator lines (over the price or in panes of their own) and drawings. The data path
// is built for 100k candles: columns in, one loop to the library's array, one setData (a long
// series first paints its latest candles, then loads whole: PROGRESSIVE_ABOVE); React renders
// only the container, and every chart update happens in effects keyed on its input.
// Times are shifted to IST (chart-candles.ts) because the library labels its axis in UTC.
import { Box, useComputedColorScheme } from '@mantine/core';
import {
  CandlestickSeries, createChart, createSeriesMarkers, LineSeries, LineStyle,
  type CandlestickData, type IChartApi, type IPriceLine, type ISeriesApi, type ISeriesMarkersPluginApi,
  type LineData, type SeriesMarker, type Time, type UTCTimestamp, type WhitespaceData,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import {
  candleIndexAt, chartSeconds, epochMsOfChartSeconds, PROGRESSIVE_ABOVE, PROGRESSIVE_FIRST, type ChartCandles, type SignalMark,
} from './chart-candles';
import { RaysPrimitive } from './drawing-primitive';
import type { ChartDrawing } from './drawings';
import type { IndicatorLine } from './indicator-groups';

export type { ChartCandles, SignalMark } from './chart-candles';

export interface PriceChartProps {
  readonly candles: ChartCandles;
  readonly signals?: readonly SignalMark[] | undefined;
  readonly height?: number | undefined;
  /** Indicator lines; pane 0 is the price pane, 1.. are panes below it. */
  readonly indicators?: readonly IndicatorLine[] | undefined;
  readonly drawings?: readonly ChartDrawing[] | undefined;
  /** Daily candles: the time axis shows dates only. */
  readonly daily?: boolean | undefined;
  /** A click on the price pane: the bar's start (epoch ms) and the price under the pointer (rupees). */
  readonly onPriceClick?: ((point: { time: number; price: number }) => void) | undefined;
}

const PALETTE = {
  dark: { background: '#1a1b1e', text: '#c1c2c5', grid: '#2c2e33', up: '#12b886', down: '#fa5252', drawing: '#fab005' },
  light: { background: '#ffffff', text: '#212529', grid: '#e9ecef', up: '#0ca678', down: '#e03131', drawing: '#e8590c' },
} as const;

/** Farthest a press may move and still count as a click (library's own double-click distance). */
const CLICK_SLOP_PX = 5;

const MARKER_STYLE = {
  buy: { position: 'belowBar', shape: 'arrowUp', color: '#2f9e44', text: 'B' },
  sell: { position: 'aboveBar', shape: 'arrowDown', color: '#e03131', text: 'S' },
  exit: { position: 'aboveBar', shape: 'circle', color: '#868e96', text: 'X' },
} as const;

/** The library's candle array from candle `from` on: the only per-candle loop between the columns and the canvas. */
export function candlestickData(candles: ChartCandles, from = 0): CandlestickData<Time>[] {
  const { time, open, high, low, close } = candles;
  const data = new Array<CandlestickData<Time>>(time.length - from);
  for (let i = from; i < time.length; i += 1) {
    data[i - from] = { time: chartSeconds(time[i] as number) as UTCTimestamp, open: open[i] as number, high: high[i] as number, low: low[i] as number, close: close[i] as number };
  }
  return data;
}

/** An indicator line as library data: warm-up bars are whitespace so the line starts where it is defined. */
function lineData(candles: ChartCandles, values: Float64Array, from: number): Array<LineData<Time> | WhitespaceData<Time>> {
  const data = new Array<LineData<Time> | WhitespaceData<Time>>(Math.max(0, values.length - from));
  for (let i = from; i < values.length; i += 1) {
    const time = chartSeconds(candles.time[i] as number) as UTCTimestamp;
    const value = values[i] as number;
    data[i - from] = Number.isFinite(value) ? { time, value } : { time };
  }
  return data;
}

/** Markers at the bars the signals fall on (a signal between bars goes to the bar containing it). */
function markersOf(candles: ChartCandles, signals: readonly SignalMark[], from: number): SeriesMarker<Time>[] {
  if (candles.time.length === 0) return [];
  return [...signals].sort((a, b) => a.time - b.time)
    .map((signal) => ({ index: candleIndexAt(candles, signal.time), signal }))
    .filter(({ index }) => index >= from)
    .map(({ index, signal }) => ({ time: chartSeconds(candles.time[index] as number) as UTCTimestamp, ...MARKER_STYLE[signal.kind] }));
}

interface ChartParts {
  /** The container; its data-* attributes report what the library holds (candles, panes, markers, drawings) for tests and tools. */
  readonly container: HTMLDivElement;
  readonly chart: IChartApi;
  readonly candles: ISeriesApi<'Candlestick'>;
  readonly markers: ISeriesMarkersPluginApi<Time>;
  readonly rays: RaysPrimitive;
  lines: ISeriesApi<'Line'>[];
  priceLines: IPriceLine[];
  /** The first candle the library holds (0 once the whole series is loaded). */
  loadedFrom: number;
}

/** The chart, as wide as its container. */
export function PriceChart(props: PriceChartProps) {
  const { candles, signals, height = 460, indicators, drawings, daily = false, onPriceClick } = props;
  const scheme = useComputedColorScheme('dark');
  const containerRef = useRef<HTMLDivElement>(null);
  const partsRef = useRef<ChartParts | undefined>(undefined);
  const clickRef = useRef(onPriceClick);
  const candlesRef = useRef(candles);
  clickRef.current = onPriceClick;
  candlesRef.current = candles;

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return undefined;
    const chart = createChart(container, { autoSize: true, layout: { panes: { separatorColor: '#868e96' } } });
    const series = chart.addSeries(CandlestickSeries, { priceLineVisible: false });
    const rays = new RaysPrimitive();
    series.attachPrimitive(rays);
    const parts: ChartParts = { container, chart, candles: series, markers: createSeriesMarkers(series, []), rays, lines: [], priceLines: [], loadedFrom: 0 };
    partsRef.current = parts;
    // DOM clicks rather than the library's subscribeClick: the library holds back a second click
    // that comes within its double-click window (half a second) anywhere else on the pane, and a
    // user placing two drawings quickly must get both. A press that moved (a pan) is no click.
    let pressedAt: { x: number; y: number } | undefined;
    const onMouseDown = (event: MouseEvent): void => { pressedAt = { x: event.clientX, y: event.clientY }; };
    const onClick = (event: MouseEvent): void => {
      const moved = pressedAt === undefined || Math.abs(event.clientX - pressedAt.x) + Math.abs(event.clientY - pressedAt.y) > CLICK_SLOP_PX;
      const pane = chart.panes()[0]?.getHTMLElement();
      if (moved || pane === undefined || pane === null || clickRef.current === undefined) return;
      const bounds = pane.getBoundingClientRect();
      const x = event.clientX - bounds.left;
      const y = event.clientY - bounds.top;
      const size = chart.paneSize(0);
      if (x < 0 || y < 0 || x > size.width || y > size.height) return;
      const time = chart.timeScale().coordinateToTime(x);
      const price = series.coordinateToPrice(y);
      if (time === null || price === null) return;
      clickRef.current({ time: epochMsOfChartSeconds(time as number), price });
    };
    // Capture phase: the library's own handlers on the canvases must not be able to hide either event.
    container.addEventListener('mousedown', onMouseDown, true);
    container.addEventListener('click', onClick, true);
    return () => {
      container.removeEventListener('mousedown', onMouseDown, true);
      container.removeEventListener('click', onClick, true);
      partsRef.current = undefined;
      chart.remove();
    };
  }, []);

  useEffect(() => {
    const palette = PALETTE[scheme];
    partsRef.current?.chart.applyOptions({
      layout: { background: { color: palette.background }, textColor: palette.text },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
    });
    partsRef.current?.candles.applyOptions({
      upColor: palette.up, downColor: palette.down, wickUpColor: palette.up, wickDownColor: palette.down, borderVisible: false,
    });
  }, [scheme]);

  useEffect(() => {
    partsRef.current?.chart.applyOptions({ timeScale: { timeVisible: !daily, secondsVisible: false } });
  }, [daily]);

  // Bumped when the whole series has reached the library, so markers and lines cover it too.
  const [loadedVersion, setLoadedVersion] = useState(0);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return undefined;
    const total = candles.time.length;
    parts.loadedFrom = total > PROGRESSIVE_ABOVE ? total - PROGRESSIVE_FIRST : 0;
    parts.candles.setData(candlestickData(candles, parts.loadedFrom));
    parts.chart.timeScale().scrollToRealTime();
    parts.container.dataset.candles = String(parts.candles.data().length);
    if (parts.loadedFrom === 0) return undefined;
    // Once the first frame is on screen (the library draws in the next animation frame; one more
    // frame later it has been presented): the whole series, keeping the bars in view where they are.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          const shift = parts.loadedFrom;
          const range = parts.chart.timeScale().getVisibleLogicalRange();
          parts.loadedFrom = 0;
          parts.candles.setData(candlestickData(candles));
          if (range !== null) parts.chart.timeScale().setVisibleLogicalRange({ from: range.from + shift, to: range.to + shift });
          parts.container.dataset.candles = String(parts.candles.data().length);
          setLoadedVersion((version) => version + 1);
        }, 0);
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [candles]);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return;
    parts.markers.setMarkers(markersOf(candles, signals ?? [], parts.loadedFrom));
    parts.container.dataset.markers = String(parts.markers.markers().length);
  }, [candles, signals, loadedVersion]);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return;
    const { chart } = parts;
    for (const line of parts.lines) chart.removeSeries(line);
    for (let pane = chart.panes().length - 1; pane > 0; pane -= 1) chart.removePane(pane);
    parts.lines = (indicators ?? []).map((line) => {
      const series = chart.addSeries(LineSeries, {
        color: line.color, lineWidth: 1, title: line.label, priceLineVisible: false, lastValueVisible: true, crosshairMarkerVisible: false,
      }, line.pane);
      series.setData(lineData(candles, line.values, parts.loadedFrom));
      return series;
    });
    // The price pane keeps most of the height; each oscillator pane gets a strip.
    chart.panes().forEach((pane, index) => pane.setStretchFactor(index === 0 ? 3 : 1));
    parts.container.dataset.panes = String(chart.panes().length);
  }, [candles, indicators, loadedVersion]);

  useEffect(() => {
    const parts = partsRef.current;
    if (parts === undefined) return;
    const colour = PALETTE[scheme].drawing;
    for (const line of parts.priceLines) parts.candles.removePriceLine(line);
    const list = drawings ?? [];
    parts.priceLines = list.filter((drawing) => drawing.kind === 'horizontal').map((drawing) => parts.candles.createPriceLine({
      price: drawing.price, color: colour, lineWidth: 2, lineStyle: LineStyle.Solid, axisLabelVisible: true, title: '',
    }));
    const current = candlesRef.current;
    const rays = list.flatMap((drawing) => (drawing.kind === 'ray' && current.time.length > 0
      ? [{ time: chartSeconds(current.time[candleIndexAt(current, drawing.time)] as number), price: drawing.price, color: colour }]
      : []));
    parts.rays.setRays(rays);
    parts.container.dataset.drawings = String(parts.priceLines.length + rays.length);
  }, [drawings, scheme, candles]);

  return (
    <Box
      ref={containerRef}
      h={height}
      w="100%"
      data-testid="price-chart"
      style={{ position: 'relative', cursor: onPriceClick === undefined ? undefined : 'crosshair' }}
    />
  );
}

// The bench page: builds `count` candles as columns before the clock starts, then times from the
// first call until the chart's canvas holds its first frame, either through PriceChart (mode
// price-chart: React, Mantine provider, the wrapper's data path) or through bare lightweight-charts
// (mode reference: createChart, addSeries, one setData of a plain loop's objects). The result goes
// to window.__benchResult for the driving script.
import { MantineProvider } from '@mantine/core';
import { CandlestickSeries, createChart, type CandlestickData, type Time, type UTCTimestamp } from 'lightweight-charts';
import { createRoot } from 'react-dom/client';
import { PriceChart } from '../../src/pages/trading/chart/PriceChart';
import type { ChartCandles } from '../../src/pages/trading/chart/chart-candles';

declare global {
  interface Window {
    __benchResult?: { mode: string; count: number; firstPaintMs: number; loadedMs: number; synchronousMs: number; frames: number; panZoomFrameMs: number[] } | { error: string };
  }
}

const params = new URLSearchParams(location.search);
const mode = params.get('mode') ?? 'price-chart';
const count = Number(params.get('count') ?? 100_000);

/** A seeded random walk of 1-minute bars: the same candles on every run. */
function syntheticCandles(length: number): ChartCandles {
  let state = 20_261_124;
  const uniform = (): number => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
  const time = new Float64Array(length);
  const open = new Float64Array(length);
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const close = new Float64Array(length);
  let last = 24_000;
  for (let i = 0; i < length; i += 1) {
    time[i] = Date.UTC(2026, 0, 1, 3, 45) + i * 60_000;
    open[i] = last;
    last = Math.round(last * (1 + 0.002 * (uniform() - 0.5)) * 100) / 100;
    close[i] = last;
    high[i] = Math.max(open[i] as number, last) + uniform() * 5;
    low[i] = Math.min(open[i] as number, last) - uniform() * 5;
  }
  return { time, open, high, low, close };
}

/** The largest canvas under the element: the price pane. */
function paneCanvas(element: HTMLElement): HTMLCanvasElement | undefined {
  let best: HTMLCanvasElement | undefined;
  for (const canvas of element.querySelectorAll('canvas')) if (best === undefined || canvas.width * canvas.height > best.width * best.height) best = canvas;
  return best;
}

/** True once the canvas is not one uniform colour (background, grid and candles come in one paint). */
function painted(canvas: HTMLCanvasElement | undefined): boolean {
  if (canvas === undefined || canvas.width === 0 || canvas.height === 0) return false;
  const context = canvas.getContext('2d');
  if (context === null) return false;
  const row = context.getImageData(0, Math.floor(canvas.height / 2), canvas.width, 1).data;
  for (let i = 4; i < row.length; i += 1) if (row[i] !== row[i % 4]) return true;
  return false;
}

/** The time of the first animation frame at which the chart has painted, and how many frames that took. */
function firstPaint(element: HTMLElement): Promise<{ at: number; frames: number }> {
  return new Promise((resolve) => {
    let frames = 0;
    const check = (): void => {
      const now = performance.now();
      frames += 1;
      if (painted(paneCanvas(element))) resolve({ at: now, frames });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

function referenceChart(element: HTMLElement, candles: ChartCandles): void {
  const chart = createChart(element, { autoSize: true });
  const series = chart.addSeries(CandlestickSeries);
  const data = new Array<CandlestickData<Time>>(candles.time.length);
  for (let i = 0; i < candles.time.length; i += 1) {
    data[i] = { time: ((candles.time[i] as number) / 1000) as UTCTimestamp, open: candles.open[i] as number, high: candles.high[i] as number, low: candles.low[i] as number, close: candles.close[i] as number };
  }
  series.setData(data);
}

/** The time of the first frame at which PriceChart reports holding all `count` candles. */
function wholeSeriesLoaded(element: HTMLElement): Promise<number> {
  return new Promise((resolve) => {
    const check = (): void => {
      const chart = element.querySelector<HTMLElement>('[data-testid="price-chart"]');
      if (chart?.dataset.candles === String(count)) resolve(performance.now());
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** Frame intervals while the chart is panned and zoomed by wheel events, one event per frame. */
function panAndZoom(element: HTMLElement, frames: number): Promise<number[]> {
  const rect = element.getBoundingClientRect();
  const target = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2) ?? element;
  const intervals: number[] = [];
  return new Promise((resolve) => {
    let last = performance.now();
    let frame = 0;
    const step = (): void => {
      const now = performance.now();
      intervals.push(now - last);
      last = now;
      if (frame === frames) {
        resolve(intervals.slice(1));
        return;
      }
      // Zoom out for a quarter, pan back through history for a quarter, then the same back again.
      const phase = Math.floor((frame * 4) / frames);
      const zoom = phase === 0 ? 120 : phase === 3 ? -120 : 0;
      const pan = phase === 1 ? -200 : phase === 2 ? 200 : 0;
      target.dispatchEvent(new WheelEvent('wheel', { deltaY: zoom, deltaX: pan, clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2, bubbles: true, cancelable: true }));
      frame += 1;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

async function run(): Promise<void> {
  const element = document.getElementById('chart') as HTMLElement;
  const candles = syntheticCandles(count);
  // Let the page settle (fonts, layout) before the clock starts.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const start = performance.now();
  if (mode === 'reference') referenceChart(element, candles);
  else createRoot(element).render(<MantineProvider defaultColorScheme="dark"><PriceChart candles={candles} height={500} /></MantineProvider>);
  const synchronousMs = performance.now() - start;
  const { at, frames } = await firstPaint(element);
  // PriceChart paints a long series' latest candles first and then loads it whole: the bench
  // also times until the library holds every candle (the bare library holds them at first paint).
  const loadedAt = mode === 'reference' ? at : await wholeSeriesLoaded(element);
  const panZoomFrameMs = await panAndZoom(element, 120);
  window.__benchResult = { mode, count, firstPaintMs: at - start, loadedMs: loadedAt - start, synchronousMs, frames, panZoomFrameMs };
}

run().catch((error: unknown) => { window.__benchResult = { error: error instanceof Error ? error.message : String(error) }; });

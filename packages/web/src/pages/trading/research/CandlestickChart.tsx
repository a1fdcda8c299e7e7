// An SVG candlestick chart for thousands of candles: candles are placed by index (sessions have
// gaps), all rising candles are one <path> and all falling ones another, and when there are more
// candles than pixels they are merged into pixel-wide buckets first, so the DOM stays small.
import { Box, Text, useMantineTheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo, useState, type MouseEvent } from 'react';
import { formatDate, formatTime } from '../../../format/format';
import { linearScale, niceTicks, paddedExtent } from './chart-scale';
import { istDateOf } from './ist-dates';

/** Candles as columns (the candle_series action's shape): epoch ms and integer paise. */
export interface CandleColumns {
  readonly time: readonly number[];
  readonly open: readonly number[];
  readonly high: readonly number[];
  readonly low: readonly number[];
  readonly close: readonly number[];
}

const MARGIN = { top: 28, right: 72, bottom: 28, left: 8 } as const;
/** Narrowest slot a drawn candle gets; denser data is bucketed. */
const MIN_SLOT_PX = 3;
const X_LABELS = 7;
const PRICE = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Points (rupees) from paise, for the price axis and the hover line. */
const points = (paise: number): string => PRICE.format(paise / 100);

/** Merges consecutive candles into `size`-candle buckets (first open, highest high, lowest low, last close). */
export function bucketCandles(candles: CandleColumns, size: number): CandleColumns {
  if (size <= 1) return candles;
  const out = { time: [] as number[], open: [] as number[], high: [] as number[], low: [] as number[], close: [] as number[] };
  for (let start = 0; start < candles.time.length; start += size) {
    const end = Math.min(start + size, candles.time.length);
    let high = -Infinity;
    let low = Infinity;
    for (let i = start; i < end; i += 1) {
      high = Math.max(high, candles.high[i] as number);
      low = Math.min(low, candles.low[i] as number);
    }
    out.time.push(candles.time[start] as number);
    out.open.push(candles.open[start] as number);
    out.close.push(candles.close[end - 1] as number);
    out.high.push(high);
    out.low.push(low);
  }
  return out;
}

interface Geometry {
  readonly drawn: CandleColumns;
  readonly up: string;
  readonly down: string;
  readonly slot: number;
  readonly priceTicks: number[];
  readonly y: (paise: number) => number;
}

function geometry(candles: CandleColumns, size: { width: number; height: number }): Geometry {
  const plotWidth = size.width - MARGIN.left - MARGIN.right;
  const bucket = Math.max(1, Math.ceil((candles.time.length * MIN_SLOT_PX) / Math.max(1, plotWidth)));
  const drawn = bucketCandles(candles, bucket);
  const slot = plotWidth / Math.max(1, drawn.time.length);
  const [min, max] = paddedExtent([...drawn.low, ...drawn.high], 0.04);
  const y = linearScale([min, max], [size.height - MARGIN.bottom, MARGIN.top]);
  const body = Math.max(1, slot * 0.7);
  let up = '';
  let down = '';
  for (let i = 0; i < drawn.time.length; i += 1) {
    const open = drawn.open[i] as number;
    const close = drawn.close[i] as number;
    const cx = Math.round(MARGIN.left + slot * (i + 0.5)) + 0.5;
    const top = y(Math.max(open, close));
    const bottom = Math.max(y(Math.min(open, close)), top + 1);
    const left = (cx - body / 2).toFixed(1);
    const right = (cx + body / 2).toFixed(1);
    const shape = `M${cx} ${y(drawn.high[i] as number).toFixed(1)}V${y(drawn.low[i] as number).toFixed(1)}`
      + `M${left} ${top.toFixed(1)}H${right}V${bottom.toFixed(1)}H${left}Z`;
    if (close >= open) up += shape;
    else down += shape;
  }
  return { drawn, up, down, slot, priceTicks: niceTicks(min, max, 6), y };
}

function timeLabel(time: number, previous: number | undefined, daily: boolean): string {
  if (daily || previous === undefined || istDateOf(previous) !== istDateOf(time)) return formatDate(time);
  return formatTime(time);
}

/** The chart, as wide as its container; `daily` labels the time axis with dates only. */
export function CandlestickChart({ candles, daily, height = 420 }: { readonly candles: CandleColumns; readonly daily: boolean; readonly height?: number }) {
  const theme = useMantineTheme();
  const { ref, width } = useElementSize();
  const [hover, setHover] = useState<number | undefined>(undefined);
  const shape = useMemo(() => (width > MARGIN.left + MARGIN.right ? geometry(candles, { width, height }) : undefined), [candles, width, height]);
  if (shape === undefined) return <Box ref={ref} w="100%" h={height} />;
  const { drawn, slot, y } = shape;
  const count = drawn.time.length;
  const labelIndexes = count <= X_LABELS ? drawn.time.map((_, i) => i)
    : Array.from({ length: X_LABELS }, (_, i) => Math.round((i * (count - 1)) / (X_LABELS - 1)));
  const onMove = (event: MouseEvent<SVGSVGElement>): void => {
    const left = event.currentTarget.getBoundingClientRect().left;
    const index = Math.floor((event.clientX - left - MARGIN.left) / slot);
    setHover(index >= 0 && index < count ? index : undefined);
  };
  const green = theme.colors.teal[6];
  const red = theme.colors.red[6];
  return (
    <Box ref={ref} w="100%" pos="relative">
      <svg width={width} height={height} role="img" aria-label={`Candlestick chart, ${candles.time.length} candles`}
        style={{ display: 'block', fontSize: 11 }} onMouseMove={onMove} onMouseLeave={() => setHover(undefined)}>
        {shape.priceTicks.map((tick) => (
          <g key={tick}>
            <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke={theme.colors.gray[6]} strokeOpacity={0.2} />
            <text x={width - MARGIN.right + 6} y={y(tick)} dy="0.32em" fill="currentColor">{points(tick)}</text>
          </g>
        ))}
        {labelIndexes.map((index, position) => {
          const previousIndex = position > 0 ? labelIndexes[position - 1] : undefined;
          const previous = previousIndex === undefined ? undefined : drawn.time[previousIndex];
          return (
            <text key={index} x={MARGIN.left + slot * (index + 0.5)} y={height - 8} fill="currentColor"
              textAnchor={index === 0 ? 'start' : index === count - 1 ? 'end' : 'middle'}>
              {timeLabel(drawn.time[index] as number, previous, daily)}
            </text>
          );
        })}
        <path d={shape.up} fill={green} stroke={green} strokeWidth={1} />
        <path d={shape.down} fill={red} stroke={red} strokeWidth={1} />
        {hover !== undefined && (
          <line x1={MARGIN.left + slot * (hover + 0.5)} x2={MARGIN.left + slot * (hover + 0.5)} y1={MARGIN.top} y2={height - MARGIN.bottom}
            stroke={theme.colors.gray[5]} strokeDasharray="3 3" />
        )}
      </svg>
      {hover !== undefined && (
        <Text size="xs" pos="absolute" top={4} left={MARGIN.left + 4} ff="monospace" style={{ whiteSpace: 'pre' }}>
          {daily ? formatDate(drawn.time[hover] as number) : `${formatDate(drawn.time[hover] as number)} ${formatTime(drawn.time[hover] as number)}`}
          {`  O ${points(drawn.open[hover] as number)}  H ${points(drawn.high[hover] as number)}  L ${points(drawn.low[hover] as number)}  C ${points(drawn.close[hover] as number)}`}
        </Text>
      )}
    </Box>
  );
}

// A plain SVG line chart: one series, value axis with round ticks, a few x labels, an optional
// zero line and vertical markers (breakevens). Used for equity curves and payoff diagrams.
import { Box, useMantineTheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { linearScale, niceTicks, paddedExtent } from './chart-scale';

export interface LineChartMarker {
  readonly x: number;
  readonly label: string;
}

export interface LineChartProps {
  /** Ascending x values. */
  readonly xs: readonly number[];
  readonly ys: readonly number[];
  readonly formatX: (x: number) => string;
  readonly formatY: (y: number) => string;
  readonly height?: number;
  readonly zeroLine?: boolean;
  readonly markers?: readonly LineChartMarker[];
  /** Accessible description of what the chart shows. */
  readonly title: string;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 88 } as const;
const X_LABELS = 6;

function linePath(points: ReadonlyArray<readonly [number, number]>): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`).join('');
}

/** The chart, as wide as its container. */
export function LineChart({ xs, ys, formatX, formatY, height = 260, zeroLine = false, markers = [], title }: LineChartProps) {
  const theme = useMantineTheme();
  const { ref, width } = useElementSize();
  const first = xs[0];
  const last = xs[xs.length - 1];
  const plotWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const ready = first !== undefined && last !== undefined && plotWidth > 0;
  const [yMin, yMax] = paddedExtent(zeroLine ? [...ys, 0] : ys);
  const x = linearScale([first ?? 0, last ?? 1], [MARGIN.left, MARGIN.left + plotWidth]);
  const y = linearScale([yMin, yMax], [MARGIN.top + plotHeight, MARGIN.top]);
  const yTicks = niceTicks(yMin, yMax, 5);
  const xTickIndexes = xs.length <= X_LABELS ? xs.map((_, index) => index)
    : Array.from({ length: X_LABELS }, (_, index) => Math.round((index * (xs.length - 1)) / (X_LABELS - 1)));
  const points = xs.map((value, index) => [x(value), y(ys[index] ?? 0)] as const);
  const grid = theme.colors.gray[6];
  return (
    <Box ref={ref} w="100%">
      {ready ? (
        <svg width={width} height={height} role="img" aria-label={title} style={{ display: 'block', fontSize: 11 }}>
          {yTicks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={grid} strokeOpacity={0.25} />
              <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fill="currentColor">{formatY(tick)}</text>
            </g>
          ))}
          {xTickIndexes.map((index) => {
            const value = xs[index] as number;
            const anchor = index === 0 ? 'start' : index === xs.length - 1 ? 'end' : 'middle';
            return <text key={index} x={x(value)} y={height - 8} textAnchor={anchor} fill="currentColor">{formatX(value)}</text>;
          })}
          {zeroLine && <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(0)} y2={y(0)} stroke={grid} strokeWidth={1.5} />}
          {markers.map((marker) => (
            <g key={`${marker.x}-${marker.label}`}>
              <line x1={x(marker.x)} x2={x(marker.x)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} stroke={theme.colors.orange[6]} strokeDasharray="4 3" />
              <text x={x(marker.x)} y={MARGIN.top + 10} dx={4} fill={theme.colors.orange[6]}>{marker.label}</text>
            </g>
          ))}
          <path d={linePath(points)} fill="none" stroke={theme.colors.blue[5]} strokeWidth={2} />
        </svg>
      ) : <Box h={height} />}
    </Box>
  );
}

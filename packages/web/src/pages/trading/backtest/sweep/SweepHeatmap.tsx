// The heatmap of a sweep: a metric over two chosen parameters with every other parameter fixed at
// a chosen value (the engine's sweepHeatmap), drawn as plain SVG like the other heatmaps of the
// app (parts/CalendarHeatmap.tsx): red is worst, green best, grey where no combination ran
// (constrained out or not sampled). The best cell is outlined. One parameter: a single row.
import { Group, ScrollArea, Select, Stack, Text } from '@mantine/core';
import type { SweepHeatmap as HeatmapCells, SweepMetric } from '@vyuha/engine';
import { sweepHeatmap } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { metricOf } from './sweep-form';
import type { SweepRowRecord } from './sweep-view';
import { betterText, cellColor, cellRange, METRIC_LABELS, METRIC_ORDER, metricText, valuesOf } from './sweep-view';

const CELL_W = 64;
const CELL_H = 30;
const LEFT = 70;
const TOP = 34;

/** A single row of cells over one parameter (a sweep of one parameter). */
function stripOf(rows: readonly SweepRowRecord[], x: string, metric: SweepMetric): HeatmapCells {
  const xValues = valuesOf(rows, x);
  const cells = [xValues.map((value) => rows.find((row) => row.bindings[x] === value)?.metrics[metric] ?? null)];
  return { x, y: '', metric, xValues, yValues: [Number.NaN], cells };
}

interface CellProps {
  readonly map: HeatmapCells;
  readonly at: { readonly i: number; readonly j: number };
  readonly range: { readonly min: number; readonly max: number } | undefined;
  readonly best: boolean;
}

/** One cell: its colour, the value written in it, and a tooltip naming the parameters. */
function Cell({ map, at, range, best }: CellProps) {
  const x = map.xValues[at.i] as number;
  const y = map.yValues[at.j] as number;
  const value = map.cells[at.j]?.[at.i] ?? null;
  const text = metricText(map.metric, value);
  const where = `$${map.x} = ${x}${map.y === '' ? '' : `, $${map.y} = ${y}`}`;
  const left = LEFT + at.i * CELL_W;
  const top = TOP + at.j * CELL_H;
  const fill = range === undefined ? cellColor(null, { min: 0, max: 0, metric: map.metric }) : cellColor(value, { ...range, metric: map.metric });
  return (
    <g>
      <rect x={left} y={top} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill={fill}
        stroke={best ? 'var(--mantine-color-text)' : 'none'} strokeWidth={best ? 2.5 : 0}
        data-testid="sweep-cell" data-x={x} data-y={map.y === '' ? undefined : y} data-value={value === null ? '' : String(value)} data-best={best ? 'true' : undefined}>
        <title>{`${where}: ${value === null ? 'no run' : text}`}</title>
      </rect>
      {value !== null && (
        <text x={left + CELL_W / 2 - 1} y={top + CELL_H / 2 + 3} fontSize={9} textAnchor="middle" fill="#fff" pointerEvents="none">{text}</text>
      )}
    </g>
  );
}

function Grid({ map, best }: { readonly map: HeatmapCells; readonly best: SweepRowRecord | null }) {
  const range = cellRange(map.cells);
  const width = LEFT + map.xValues.length * CELL_W + 8;
  const height = TOP + map.yValues.length * CELL_H + 8;
  const isBest = (x: number, y: number): boolean => best !== null && best.bindings[map.x] === x && (map.y === '' || best.bindings[map.y] === y);
  const label = `${METRIC_LABELS[map.metric]} over $${map.x}${map.y === '' ? '' : ` and $${map.y}`}`;
  return (
    <ScrollArea type="auto">
      <svg width={width} height={height} role="img" aria-label={label} data-testid="sweep-heatmap">
        <text x={LEFT} y={12} fontSize={11} fill="currentColor">${map.x} →</text>
        {map.y !== '' && <text x={4} y={TOP - 6} fontSize={11} fill="currentColor">${map.y} ↓</text>}
        {map.xValues.map((x, i) => <text key={x} x={LEFT + i * CELL_W + CELL_W / 2} y={TOP - 6} fontSize={11} textAnchor="middle" fill="currentColor">{x}</text>)}
        {map.yValues.map((y, j) => (
          <g key={j}>
            {map.y !== '' && <text x={LEFT - 6} y={TOP + j * CELL_H + CELL_H / 2 + 4} fontSize={11} textAnchor="end" fill="currentColor">{y}</text>}
            {map.xValues.map((x, i) => <Cell key={x} map={map} at={{ i, j }} range={range} best={isBest(x, y)} />)}
          </g>
        ))}
      </svg>
    </ScrollArea>
  );
}

export interface SweepHeatmapProps {
  readonly rows: readonly SweepRowRecord[];
  readonly parameters: readonly string[];
  readonly metric: SweepMetric;
  readonly best: SweepRowRecord | null;
}

/** The heatmap with its choices: metric, x and y parameters, and a value for each other parameter. */
export function SweepHeatmap({ rows, parameters, metric: initialMetric, best }: SweepHeatmapProps) {
  const [metric, setMetric] = useState(initialMetric);
  const [x, setX] = useState(parameters[0] ?? '');
  const [y, setY] = useState(parameters[1] ?? '');
  const [chosen, setChosen] = useState<Record<string, number>>({});
  const others = parameters.filter((name) => name !== x && name !== y);
  const othersKey = others.join(',');
  // Each other parameter at the value chosen for it, else the best cell's, else its lowest.
  const fixed = useMemo(() => Object.fromEntries(othersKey.split(',').filter((name) => name !== '')
    .map((name) => [name, chosen[name] ?? best?.bindings[name] ?? valuesOf(rows, name)[0] ?? 0])), [othersKey, chosen, best, rows]);
  const map = useMemo(() => (parameters.length < 2 || y === x ? stripOf(rows, x, metric) : sweepHeatmap(rows, { x, y, metric, fixed })),
    [rows, parameters.length, x, y, metric, fixed]);
  const choices = parameters.map((name) => ({ value: name, label: `$${name}` }));
  const pick = (axis: 'x' | 'y', name: string | null): void => {
    if (name === null) return;
    const other = axis === 'x' ? y : x;
    if (name === other) (axis === 'x' ? setY : setX)(axis === 'x' ? x : y);
    (axis === 'x' ? setX : setY)(name);
  };
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-end">
        <Select size="xs" w={240} label="Metric" allowDeselect={false} value={metric} onChange={(value) => setMetric(metricOf(value, metric))}
          data-testid="sweep-heatmap-metric"
          data={METRIC_ORDER.map((name) => ({ value: name, label: `${METRIC_LABELS[name]} (${betterText(name)})` }))} />
        <Select size="xs" w={130} label="Across" allowDeselect={false} value={x} data={choices} onChange={(value) => pick('x', value)} data-testid="sweep-heatmap-x" />
        {parameters.length >= 2 && (
          <Select size="xs" w={130} label="Down" allowDeselect={false} value={y} data={choices} onChange={(value) => pick('y', value)} data-testid="sweep-heatmap-y" />
        )}
        {others.map((name) => (
          <Select key={name} size="xs" w={130} label={`$${name} fixed at`} allowDeselect={false} value={String(fixed[name])}
            data={valuesOf(rows, name).map((value) => String(value))} onChange={(value) => value !== null && setChosen({ ...chosen, [name]: Number(value) })}
            data-testid={`sweep-heatmap-fixed-${name}`} />
        ))}
      </Group>
      <Grid map={map} best={best !== null && others.every((name) => best.bindings[name] === fixed[name]) ? best : null} />
      <Text size="xs" c="dimmed">
        Red is worst, green best ({betterText(metric)}); grey: no combination ran there (a constraint or the sample left it out).
        The outlined cell is the sweep&apos;s best (by the metric it ranked by).
      </Text>
    </Stack>
  );
}

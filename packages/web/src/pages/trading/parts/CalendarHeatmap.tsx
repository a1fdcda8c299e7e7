// A calendar heatmap drawn as plain SVG: one column per week (Monday on top), one cell per day,
// coloured by docs/PRODUCT.md section 9 bands of the chosen metric (profit/loss, orders, or returns on
// an investment), on the main or the alternate scale; days without data stay empty.
import { Box, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { addDays, daysBetween, isIsoDate, weekStart, type IsoDate } from '@vyuha/core';
import { formatRupees } from '../../../format/format';
import { bandColor, levelLabels, levelsOf, ordersBand, pnlBand, returnsBand, scaleFor, type Band, type BandChoice, type HeatmapMetric } from './heatmap-bands';

export interface DayValue {
  readonly pnlPaise: number;
  readonly orders: number;
}

const GAP = 3;
const LEFT = 30;
const TOP = 16;
const WEEKDAYS = ['Mon', '', 'Wed', '', 'Fri', '', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const EMPTY_FILL = 'var(--mantine-color-default-border)';
const ZERO_FILL = 'var(--mantine-color-gray-5)';

function bandOf(metric: HeatmapMetric, value: DayValue, options: { bands: BandChoice; capitalPaise: number | undefined }): Band {
  if (metric === 'orders') return ordersBand(value.orders, options.bands);
  if (metric === 'returns') return options.capitalPaise === undefined || options.capitalPaise <= 0 ? { tone: 'none', level: 0 } : returnsBand(value.pnlPaise, options.capitalPaise);
  return pnlBand(value.pnlPaise, options.bands);
}

function dayTitle(date: string, value: DayValue | undefined): string {
  if (!value) return `${date}: no trading`;
  return `${date}: ${formatRupees(value.pnlPaise)}, ${value.orders} ${value.orders === 1 ? 'order' : 'orders'}`;
}

function Swatch({ color, label }: { readonly color: string; readonly label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Box w={12} h={12} style={{ background: color, borderRadius: 2 }} />
      <Text size="xs" c="dimmed">{label}</Text>
    </Group>
  );
}

/** The bands the current metric uses, as a legend (losses, then profits). */
export function HeatmapLegend({ metric, bands = 'standard' }: { readonly metric: HeatmapMetric; readonly bands?: BandChoice }) {
  const count = levelsOf(scaleFor(metric, bands));
  const levels = Array.from({ length: count }, (_, level) => level);
  const labels = levelLabels(metric, bands);
  if (metric === 'orders') {
    return (
      <Group gap="sm">
        <Text size="xs" c="dimmed">Orders per day:</Text>
        {levels.map((level) => <Swatch key={level} color={bandColor({ tone: 'orders', level, levels: count }) ?? EMPTY_FILL} label={labels[level] ?? ''} />)}
      </Group>
    );
  }
  const unit = metric === 'returns' ? '' : ' ₹';
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Text size="xs" c="dimmed" w={48}>Loss{unit}</Text>
        {levels.map((level) => <Swatch key={level} color={bandColor({ tone: 'loss', level, levels: count }) ?? EMPTY_FILL} label={labels[level] ?? ''} />)}
      </Group>
      <Group gap="sm">
        <Text size="xs" c="dimmed" w={48}>Profit{unit}</Text>
        {levels.map((level) => <Swatch key={level} color={bandColor({ tone: 'profit', level, levels: count }) ?? EMPTY_FILL} label={labels[level] ?? ''} />)}
      </Group>
    </Stack>
  );
}

export interface CalendarHeatmapProps {
  readonly from: string;
  readonly to: string;
  readonly days: ReadonlyMap<string, DayValue>;
  readonly metric: HeatmapMetric;
  /** The spec's main bands (default) or its alternates. */
  readonly bands?: BandChoice;
  /** The investment the 'returns' metric divides by, paise. */
  readonly capitalPaise?: number;
  /** Makes each day with data a button (click, Enter or Space) that reports its date. */
  readonly onSelect?: (date: string) => void;
  /** The day drawn with an outline as chosen. */
  readonly selected?: string | undefined;
}

const METRIC_WORDS: Record<HeatmapMetric, string> = { pnl: 'daily profit and loss', orders: 'daily order counts', returns: 'daily returns on the investment' };

/** Bigger cells for short ranges so a quarter fills the card; a year stays about 850 px wide. */
function cellSize(weeks: number): number {
  return weeks <= 20 ? 20 : weeks <= 32 ? 16 : 13;
}

/** Month labels at the first week column holding that month's 1st (the range's first month if it has room). */
function monthLabels(input: { from: IsoDate; to: IsoDate; start: IsoDate; step: number }) {
  const labels: Array<{ column: number; text: string }> = [];
  for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
    if (date !== input.from && !date.endsWith('-01')) continue;
    const column = Math.floor(daysBetween(input.start, date) / 7);
    labels.push({ column, text: MONTHS[Number(date.slice(5, 7)) - 1] ?? '' });
  }
  // A label needs about 26 px; drop the first month's label when the next month starts right after.
  const minColumns = Math.ceil(26 / input.step);
  return labels.filter((label, index) => {
    const next = labels[index + 1];
    return index !== 0 || next === undefined || next.column - label.column >= minColumns;
  });
}

const SELECTED_STROKE = 'var(--mantine-color-text)';

export function CalendarHeatmap({ from, to, days, metric, bands = 'standard', capitalPaise, onSelect, selected }: CalendarHeatmapProps) {
  if (!isIsoDate(from) || !isIsoDate(to)) return null;
  const start = weekStart(from);
  const total = daysBetween(from, to) + 1;
  const weeks = Math.ceil((daysBetween(start, to) + 1) / 7);
  const cell = cellSize(weeks);
  const step = cell + GAP;
  const width = LEFT + weeks * step;
  const height = TOP + 7 * step;
  const cells = [];
  for (let offset = 0; offset < total; offset += 1) {
    const date = addDays(from, offset);
    const column = Math.floor(daysBetween(start, date) / 7);
    const row = daysBetween(weekStart(date), date);
    const value = days.get(date);
    const band = value ? bandOf(metric, value, { bands, capitalPaise }) : undefined;
    const fill = band === undefined ? EMPTY_FILL : bandColor(band) ?? ZERO_FILL;
    const choose = value !== undefined && onSelect !== undefined ? () => onSelect(date) : undefined;
    cells.push(
      <rect
        key={date} x={LEFT + column * step} y={TOP + row * step} width={cell} height={cell} rx={2} data-date={date}
        style={{ fill, cursor: choose ? 'pointer' : undefined, stroke: date === selected ? SELECTED_STROKE : undefined, strokeWidth: 2 }}
        {...(choose === undefined ? {} : {
          role: 'button', tabIndex: 0, 'aria-label': dayTitle(date, value), 'aria-pressed': date === selected, onClick: choose,
          onKeyDown: (event: { key: string; preventDefault: () => void }) => {
            if (event.key !== 'Enter' && event.key !== ' ') return;
            event.preventDefault();
            choose();
          },
        })}
      >
        <title>{dayTitle(date, value)}</title>
      </rect>,
    );
  }
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={`Calendar heatmap of ${METRIC_WORDS[metric]} from ${from} to ${to}`}
      >
        {WEEKDAYS.map((label, row) => label && (
          <text key={label} x={0} y={TOP + row * step + cell / 2 + 4} fontSize={10} style={{ fill: 'var(--mantine-color-dimmed)' }}>{label}</text>
        ))}
        {monthLabels({ from, to, start, step }).map((label) => (
          <text key={`${label.column}-${label.text}`} x={LEFT + label.column * step} y={TOP - 5} fontSize={10} style={{ fill: 'var(--mantine-color-dimmed)' }}>
            {label.text}
          </text>
        ))}
        {cells}
      </svg>
    </ScrollArea>
  );
}

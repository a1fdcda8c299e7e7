// Equity curves drawn with lightweight-charts 5 (zoom with the wheel, pan by dragging): one line
// per run with a legend, and for a single run its drawdown in a second pane. "Save as image"
// downloads the chart's own screenshot (takeScreenshot) as a PNG named by docs/PRODUCT.md section 9's rule.
import { Box, Button, Group, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { AreaSeries, ColorType, createChart, LineSeries, type IChartApi, type Time } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { showToast } from '../../../../app/toast';
import { downloadFileName } from '../../../../format/format';
import type { CurvePoint } from './performance';
import { downloadBlob } from '../../parts/csv';

/** Distinct colours for up to eight runs side by side (then they repeat). */
export const SERIES_COLORS = ['#228be6', '#fa5252', '#40c057', '#fab005', '#be4bdb', '#15aabf', '#fd7e14', '#868e96'];

export interface ChartLine {
  readonly id: string;
  readonly label: string;
  readonly points: readonly CurvePoint[];
}

export interface EquityChartProps {
  readonly lines: readonly ChartLine[];
  /** Drawn in a second pane (single run: the drawdown below its equity), values <= 0. */
  readonly drawdown?: readonly CurvePoint[] | undefined;
  /** How the value axis reads a value. */
  readonly formatValue: (value: number) => string;
  readonly title: string;
  /** The file name's base, e.g. 'backtest-equity'. */
  readonly fileBase: string;
  readonly profileName: string;
  readonly height?: number;
  readonly testId?: string;
  readonly saveTestId?: string;
}

const toData = (points: readonly CurvePoint[]) => points.map((point) => ({ time: point.time as Time, value: point.value }));

function downloadCanvas(canvas: HTMLCanvasElement, fileName: string): void {
  canvas.toBlob((blob) => {
    if (blob === null) {
      showToast('error', 'The chart could not be turned into an image');
      return;
    }
    downloadBlob(fileName, blob);
  }, 'image/png');
}

/** The chart, as wide as its container. */
export function EquityChart({ lines, drawdown, formatValue, title, fileBase, profileName, height = 320, testId = 'bt-equity-chart', saveTestId = 'bt-save-image' }: EquityChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | undefined>(undefined);
  const scheme = useComputedColorScheme('dark');

  useEffect(() => {
    const element = container.current;
    if (element === null) return undefined;
    const dark = scheme === 'dark';
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: dark ? '#1a1b1e' : '#ffffff' }, textColor: dark ? '#c1c2c5' : '#343a40',
        panes: { separatorColor: '#868e96' },
      },
      grid: { vertLines: { color: dark ? '#2c2e33' : '#f1f3f5' }, horzLines: { color: dark ? '#2c2e33' : '#f1f3f5' } },
      localization: { priceFormatter: formatValue },
      timeScale: { borderVisible: false },
      rightPriceScale: { borderVisible: false },
    });
    lines.forEach((line, index) => {
      const series = chart.addSeries(LineSeries, { color: SERIES_COLORS[index % SERIES_COLORS.length] ?? '#228be6', lineWidth: 2 });
      series.setData(toData(line.points));
    });
    if (drawdown !== undefined && drawdown.length > 0) {
      const area = chart.addSeries(AreaSeries, { lineColor: '#fa5252', topColor: 'rgba(250, 82, 82, 0.05)', bottomColor: 'rgba(250, 82, 82, 0.4)', lineWidth: 1, invertFilledArea: true }, 1);
      area.setData(toData(drawdown));
      chart.panes()[1]?.setHeight(Math.round(height * 0.3));
    }
    chart.timeScale().fitContent();
    chartRef.current = chart;
    return () => {
      chartRef.current = undefined;
      chart.remove();
    };
  }, [lines, drawdown, formatValue, scheme, height]);

  const save = (): void => {
    const chart = chartRef.current;
    if (chart === undefined) return;
    downloadCanvas(chart.takeScreenshot(), downloadFileName({ profileName, base: fileBase, extension: 'png', nowMs: Date.now() }));
  };

  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>{title}</Text>
        <Button size="xs" variant="light" onClick={save} data-testid={saveTestId}>Save as image</Button>
      </Group>
      <Box ref={container} h={height} data-testid={testId} role="img" aria-label={title} />
      {lines.length > 1 && (
        <Group gap="md" data-testid="bt-chart-legend">
          {lines.map((line, index) => (
            <Group key={line.id} gap={6} wrap="nowrap">
              <Box w={14} h={3} style={{ background: SERIES_COLORS[index % SERIES_COLORS.length] }} />
              <Text size="xs">{line.label}</Text>
            </Group>
          ))}
        </Group>
      )}
      <Text size="xs" c="dimmed">Scroll to zoom, drag to pan, double-click the axis to reset.</Text>
    </Stack>
  );
}

// The editor's signal preview: the draft algorithm's buy/sell/exit signals on a candle chart of an
// index over a short recent range. Candles come from the candle_series action and signals are
// computed in the chart's Web Worker (the chart part's PriceChart and useSignals), so typing never
// stalls the page. Signals show only while the signal-enabled flag is on and the graph is valid.
import { Alert, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { IsoDate } from '@vyuha/core';
import type { AlgorithmDocument } from '@vyuha/engine';
import { useState } from 'react';
import { useQuery } from 'urql';
import { INTERVAL_OPTIONS } from '../chart/chart-form';
import { CHART_INDICES, type InstrumentRow } from '../chart/chart-queries';
import { PriceChart } from '../chart/PriceChart';
import { useSignals } from '../chart/signals-client';
import { useChartCandles } from '../chart/use-chart-candles';
import { asIsoDate, istToday } from '../../../format/date-ranges';
import { QueryError } from '../research/query-feedback';
import { previewRange, signalKey } from './preview-model';

const LATEST_CANDLE = `
  query PreviewLatestCandle($instrument_id: Int!) {
    candles(where: { instrument_id: { _eq: $instrument_id } }, order_by: { ts: desc }, limit: 1) { ts }
  }`;

/** The default chart interval (docs/PRODUCT.md section 9), minutes. */
const PREVIEW_INTERVAL = 5;

/** The document of the last change signals depend on (dragging a node keeps the same object). */
function useSignalDocument(document: AlgorithmDocument): AlgorithmDocument {
  const key = signalKey(document);
  const [kept, setKept] = useState({ key, document });
  // Adjusting state while rendering (React's pattern for derived state): a new key keeps the new document.
  if (kept.key !== key) setKept({ key, document });
  return kept.key === key ? kept.document : document;
}

function RangeFields({ range, onRange }: { readonly range: { from: IsoDate; to: IsoDate }; readonly onRange: (range: { from: IsoDate; to: IsoDate }) => void }) {
  const set = (field: 'from' | 'to', text: string): void => {
    const date = asIsoDate(text);
    if (date !== undefined) onRange({ ...range, [field]: date });
  };
  return (
    <>
      <TextInput size="xs" type="date" label="From" value={range.from} onChange={(event) => set('from', event.currentTarget.value)} data-testid="algo-preview-from" />
      <TextInput size="xs" type="date" label="To" value={range.to} onChange={(event) => set('to', event.currentTarget.value)} data-testid="algo-preview-to" />
    </>
  );
}

export function SignalPreview({ document, enabled, valid }: { readonly document: AlgorithmDocument; readonly enabled: boolean; readonly valid: boolean }) {
  const [indices] = useQuery<{ instruments: InstrumentRow[] }>({ query: CHART_INDICES });
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const [interval, setInterval] = useState(PREVIEW_INTERVAL);
  const [range, setRange] = useState<{ from: IsoDate; to: IsoDate } | undefined>(undefined);
  const instrumentId = picked ?? indices.data?.instruments[0]?.instrument_id;
  const [latest] = useQuery<{ candles: { ts: string }[] }>({ query: LATEST_CANDLE, variables: { instrument_id: instrumentId ?? 0 }, pause: instrumentId === undefined });
  const effectiveRange = range ?? (latest.data === undefined ? undefined : previewRange(latest.data.candles[0]?.ts, istToday()));
  const candles = useChartCandles({ instrumentId, interval, range: effectiveRange });
  const signalDocument = useSignalDocument(document);
  const signals = useSignals(enabled && valid ? signalDocument : undefined, candles.candles);
  const marks = signals.status === 'done' ? signals.signals : [];

  return (
    <Stack gap="xs" data-testid="algo-preview">
      <Title order={4}>Signal preview</Title>
      <QueryError error={indices.error ?? latest.error ?? candles.error} title="Could not load the preview" />
      <Group gap="sm" align="flex-end">
        <Select size="xs" label="Instrument" w={170} allowDeselect={false} data-testid="algo-preview-instrument"
          data={(indices.data?.instruments ?? []).map((row) => ({ value: String(row.instrument_id), label: row.name }))}
          value={instrumentId === undefined ? null : String(instrumentId)}
          onChange={(value) => { if (value !== null) { setPicked(Number(value)); setRange(undefined); } }} />
        <Select size="xs" label="Interval" w={120} allowDeselect={false} data={INTERVAL_OPTIONS as { value: string; label: string }[]}
          value={String(interval)} onChange={(value) => { if (value !== null) setInterval(Number(value)); }} data-testid="algo-preview-interval" />
        {effectiveRange !== undefined && <RangeFields range={effectiveRange} onRange={setRange} />}
        <Text size="sm" c="dimmed" data-testid="algo-preview-status">
          {!enabled ? 'Signals are disabled for this algorithm.'
            : !valid ? 'Fix the errors to see signals.'
              : signals.status === 'computing' ? 'Computing signals…'
                : signals.status === 'failed' ? `Signals failed: ${signals.error}`
                  : signals.status === 'done' ? `${marks.length} signal${marks.length === 1 ? '' : 's'}` : ''}
        </Text>
      </Group>
      {candles.candles === undefined
        ? (candles.fetching || effectiveRange === undefined ? <Loader size="sm" /> : null)
        : candles.candles.time.length === 0
          ? <Alert color="gray" variant="light">No candles in this range.</Alert>
          : <div data-testid="algo-preview-chart" data-signals={marks.length}><PriceChart candles={candles.candles} signals={marks} height={320} /></div>}
    </Stack>
  );
}

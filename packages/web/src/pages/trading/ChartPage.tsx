// /chart (spec sections 2 and 9): an index, an interval (default 5 minutes) and a date range
// (default the 90 days to yesterday, never before the tier's earliest date for the interval),
// loaded through the candle_series action and drawn as an SVG candlestick chart. Lightweight
// charts and indicators come with the research workflow issue.
import { Alert, Badge, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { INTERVAL_MINUTES, DEFAULT_INTERVAL_MINUTES, type IntervalMinutes } from '@vyuha/market';
import { addDays, type IsoDate } from '@vyuha/core';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { CandlestickChart, type CandleColumns } from './research/CandlestickChart';
import { asIsoDate, defaultDateRange, istMidnightMs, istToday } from './research/ist-dates';
import { QueryError } from './research/query-feedback';
import { useWindowStarts } from './research/use-window-starts';

/** Spec section 9: the base instrument. */
const BASE_INSTRUMENT = 'NIFTY 50';

const INDICES_QUERY = `
  query ChartIndices {
    instruments(where: { kind: { _eq: "index" } }, order_by: { index_config: { sort_order: asc } }) {
      instrument_id name trading_symbol exchange
    }
  }`;

const CANDLES_QUERY = `
  query ChartCandles($instrument_id: Int!, $interval: Int!, $from: String!, $to: String!) {
    candle_series(instrument_id: $instrument_id, interval: $interval, from: $from, to: $to) {
      count truncated time open high low close
    }
  }`;

// candle_series does not say where its candles came from; the 1-minute rows carry `source`.
const SYNTHETIC_QUERY = `
  query ChartSynthetic($instrument_id: Int!, $from: timestamptz!, $to: timestamptz!) {
    candles(where: { instrument_id: { _eq: $instrument_id }, ts: { _gte: $from, _lt: $to }, source: { _eq: "synthetic" } }, limit: 1) { ts }
  }`;

interface IndexRow { readonly instrument_id: number; readonly name: string; readonly trading_symbol: string; readonly exchange: string }
interface CandleSeries extends CandleColumns { readonly count: number; readonly truncated: boolean }

const intervalLabel = (minutes: number): string => (minutes === 1440 ? '1 day' : minutes >= 60 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} min`);
const INTERVAL_OPTIONS = INTERVAL_MINUTES.map((minutes) => ({ value: String(minutes), label: intervalLabel(minutes) }));

/** The range to load: the user's dates, the start raised to the tier's earliest date. */
function effectiveRange(input: { from: string; to: string; minimum: string | undefined }): { from: IsoDate; to: IsoDate; raised: boolean } | string {
  const from = asIsoDate(input.from);
  const to = asIsoDate(input.to);
  if (from === undefined || to === undefined) return 'Enter both dates.';
  const minimum = input.minimum === undefined ? undefined : asIsoDate(input.minimum);
  const start = minimum !== undefined && from < minimum ? minimum : from;
  if (to < start) return `The range ends before it starts (${start}).`;
  return { from: start, to, raised: start !== from };
}

export function Component() {
  const windowStarts = useWindowStarts();
  const initial = useMemo(() => defaultDateRange(), []);
  const [instrumentId, setInstrumentId] = useState<number | undefined>(undefined);
  const [interval, setIntervalMinutes] = useState<IntervalMinutes>(DEFAULT_INTERVAL_MINUTES);
  const [from, setFrom] = useState<string>(initial.from);
  const [to, setTo] = useState<string>(initial.to);

  const [indices] = useQuery<{ instruments: IndexRow[] }>({ query: INDICES_QUERY });
  const rows = indices.data?.instruments ?? [];
  const selected = rows.find((row) => row.instrument_id === instrumentId) ?? rows.find((row) => row.name === BASE_INSTRUMENT) ?? rows[0];
  const minimum = windowStarts[interval];
  const range = effectiveRange({ from, to, minimum });
  const rangeOk = typeof range !== 'string';

  const candleVariables = { instrument_id: selected?.instrument_id ?? 0, interval, from: rangeOk ? range.from : '', to: rangeOk ? range.to : '' };
  const [candles] = useQuery<{ candle_series: CandleSeries }>({ query: CANDLES_QUERY, variables: candleVariables, pause: selected === undefined || !rangeOk });
  const [synthetic] = useQuery<{ candles: Array<{ ts: string }> }>({
    query: SYNTHETIC_QUERY,
    variables: {
      instrument_id: selected?.instrument_id ?? 0,
      from: rangeOk ? new Date(istMidnightMs(range.from)).toISOString() : '',
      to: rangeOk ? new Date(istMidnightMs(addDays(range.to, 1))).toISOString() : '',
    },
    pause: selected === undefined || !rangeOk,
  });
  const series = candles.data?.candle_series;
  const isSynthetic = (synthetic.data?.candles.length ?? 0) > 0;

  return (
    <Stack gap="md">
      <Title order={2}>Chart</Title>
      <QueryError error={indices.error} title="Could not load the indices" />
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select label="Index" w={220} allowDeselect={false} data={rows.map((row) => ({ value: String(row.instrument_id), label: row.name }))}
          value={selected === undefined ? null : String(selected.instrument_id)} onChange={(value) => value !== null && setInstrumentId(Number(value))} />
        <Select label="Interval" w={130} allowDeselect={false} data={INTERVAL_OPTIONS} value={String(interval)}
          onChange={(value) => value !== null && setIntervalMinutes(Number(value) as IntervalMinutes)} />
        <TextInput label="From" type="date" w={170} value={from} min={minimum} max={to} onChange={(event) => setFrom(event.currentTarget.value)} />
        <TextInput label="To" type="date" w={170} value={to} min={minimum} max={istToday()} onChange={(event) => setTo(event.currentTarget.value)} />
        {candles.fetching && <Loader size="sm" />}
      </Group>
      {minimum !== undefined && <Text size="xs" c="dimmed">Your tier charts {intervalLabel(interval)} candles from {minimum}.</Text>}
      {typeof range === 'string' && <Alert color="yellow" variant="light">{range}</Alert>}
      {rangeOk && range.raised && <Alert color="yellow" variant="light">The range starts on {range.from}, the earliest date your tier may chart at this interval.</Alert>}
      <QueryError error={candles.error} title="Could not load the candles" />
      {series !== undefined && selected !== undefined && (
        <Paper withBorder p="sm">
          <Group justify="space-between" mb="xs">
            <Text fw={500}>{selected.name} · {intervalLabel(interval)} · {series.count.toLocaleString('en-IN')} candles (IST)</Text>
            <Group gap="xs">
              {isSynthetic && <Badge color="orange" variant="light" title="Generated history, not market data">Synthetic data</Badge>}
              {series.truncated && <Badge color="gray" variant="light">Latest {series.count.toLocaleString('en-IN')} candles only</Badge>}
            </Group>
          </Group>
          {series.count === 0
            ? <Text c="dimmed">No candles in this range.</Text>
            : <CandlestickChart candles={series} daily={interval === 1440} />}
        </Paper>
      )}
    </Stack>
  );
}

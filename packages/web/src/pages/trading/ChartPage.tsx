// /chart (docs/PRODUCT.md sections 2, 3 and 9): any index or contract at every interval of section 9 (default
// 5 minutes) over a date-range preset (default the 90 days to yesterday, IST) or picked dates, never
// before the tier's earliest date for the interval. Candles come from the candle_series action and
// are drawn by chart/PriceChart (lightweight-charts); indicator groups and an algorithm's signals
// are computed in a Web Worker; Horizontal Line and Ray drawings are saved per user and instrument;
// indices with greeks get an option chain around ATM priced by the engine at the index's last price
// (parts/use-last-prices.ts: the same last price /payoff shows).
import { Alert, Badge, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { IsoDate } from '@vyuha/core';
import { isOptionUnderlying, type IntervalMinutes } from '@vyuha/market';
import { useCallback, useMemo, useState } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { useReadOnly } from '../../app/update-mode';
import { istToday, presetOf, presetRange, RANGE_PRESETS } from '../../format/date-ranges';
import { checkRange, initialChartForm, INTERVAL_OPTIONS, intervalLabel, type ChartForm } from './chart/chart-form';
import {
  CHART_CONTRACTS, CHART_INDICES, INDICATOR_GROUPS, SIGNAL_ALGORITHMS,
  type AlgorithmRow, type IndicatorGroupRow, type InstrumentRow,
} from './chart/chart-queries';
import { drawingFromClick, type DrawingTool } from './chart/drawings';
import { DrawingsPanel } from './chart/DrawingsPanel';
import { IndicatorGroupControl } from './chart/IndicatorGroupControl';
import { optionChain } from './chart/option-chain';
import { OptionChainPanel } from './chart/OptionChainPanel';
import { PriceChart } from './chart/PriceChart';
import { useAlgorithmSignals } from './chart/use-algorithm-signals';
import { useChartCandles } from './chart/use-chart-candles';
import { useChartDrawings } from './chart/use-chart-drawings';
import { useIndicatorLines } from './chart/use-indicator-lines';
import { lastPriceText, useLastPrices } from './parts/use-last-prices';
import { QueryError } from './research/query-feedback';
import { useActingUserId, useWindowStarts } from './research/use-window-starts';

/** docs/PRODUCT.md section 9: the base instrument. */
const BASE_INSTRUMENT = 'NIFTY 50';
const VIX_INSTRUMENT = 'INDIA VIX';

function instrumentLabel(row: InstrumentRow): string {
  return row.kind === 'index' ? row.name : `${row.trading_symbol} (${row.exchange})`;
}

/** The instrument picker: indices always, contracts found by their trading symbol (3 letters or more, not an index's name). */
function useInstrumentChoices(search: string): { indices: readonly InstrumentRow[]; contracts: readonly InstrumentRow[]; error: CombinedError | undefined } {
  const [indices] = useQuery<{ instruments: InstrumentRow[] }>({ query: CHART_INDICES });
  const text = search.trim();
  const isIndexName = (indices.data?.instruments ?? []).some((row) => row.name === text);
  const pattern = text.length >= 3 && !isIndexName ? `%${text}%` : '';
  const [contracts] = useQuery<{ instruments: InstrumentRow[] }>({ query: CHART_CONTRACTS, variables: { pattern }, pause: pattern === '' });
  return { indices: indices.data?.instruments ?? [], contracts: pattern === '' ? [] : contracts.data?.instruments ?? [], error: indices.error };
}

export function Component() {
  const readOnly = useReadOnly();
  const userId = useActingUserId();
  const windowStarts = useWindowStarts();
  const today = useMemo(() => istToday(), []);
  const [form, setForm] = useState<ChartForm>(() => initialChartForm(today));
  const [dates, setDates] = useState<{ from: string; to: string }>(form.dateRanges);
  const [search, setSearch] = useState('');
  const [contract, setContract] = useState<InstrumentRow | undefined>(undefined);
  const [algorithmId, setAlgorithmId] = useState<string | undefined>(undefined);
  const [tool, setTool] = useState<DrawingTool | undefined>(undefined);
  const [savedGroups, setSavedGroups] = useState<readonly IndicatorGroupRow[]>([]);

  const choices = useInstrumentChoices(search);
  const selected = (contract !== undefined && contract.instrument_id === form.selectedInstrument ? contract : undefined)
    ?? choices.indices.find((row) => row.instrument_id === form.selectedInstrument)
    ?? choices.indices.find((row) => row.name === BASE_INSTRUMENT) ?? choices.indices[0];
  const earliest = windowStarts[form.window];
  const range = checkRange(dates, earliest);
  const loaded = useChartCandles({ instrumentId: selected?.instrument_id, interval: form.window, range: range.ok ? range.range : undefined });
  const { candles } = loaded;

  const [groupsResult] = useQuery<{ indicator_configs: IndicatorGroupRow[] }>({ query: INDICATOR_GROUPS });
  const groups = useMemo(() => {
    const fetched = groupsResult.data?.indicator_configs ?? [];
    const known = new Set(fetched.map((row) => row.indicator_config_id));
    return [...fetched, ...savedGroups.filter((row) => !known.has(row.indicator_config_id))];
  }, [groupsResult.data, savedGroups]);
  const group = groups.find((row) => row.indicator_config_id === form.selectedIndicatorGroup);
  const indicatorState = useIndicatorLines(group?.indicators, candles);

  const [algorithms] = useQuery<{ algorithms: AlgorithmRow[] }>({ query: SIGNAL_ALGORITHMS, variables: { userId: userId ?? '' }, pause: userId === undefined });
  const algorithmSignals = useAlgorithmSignals(algorithmId, candles);
  const signals = algorithmSignals.signals.status === 'done' ? algorithmSignals.signals.signals : undefined;

  const drawings = useChartDrawings({ userId, instrumentId: selected?.instrument_id });
  const onPriceClick = useCallback((point: { time: number; price: number }) => {
    if (tool === undefined) return;
    drawings.add(drawingFromClick({ tool, time: point.time, price: point.price, id: `${tool}-${Date.now().toString(36)}` }));
    setTool(undefined);
  }, [tool, drawings]);

  const vixRow = choices.indices.find((row) => row.name === VIX_INSTRUMENT);
  const chainConfig = selected?.index_config;
  const chainWanted = chainConfig !== undefined && chainConfig !== null && chainConfig.oc_enabled && chainConfig.oc_greeks && isOptionUnderlying(chainConfig.value);
  const lastPrices = useLastPrices([selected?.instrument_id, chainWanted ? vixRow?.instrument_id : undefined]);
  const lastPrice = selected === undefined ? undefined : lastPrices.prices.get(selected.instrument_id);
  const vixPrice = vixRow === undefined ? undefined : lastPrices.prices.get(vixRow.instrument_id);
  const chain = useMemo(() => {
    if (!chainWanted || lastPrice === undefined || vixPrice === undefined) return undefined;
    const underlying = chainConfig.value as Parameters<typeof optionChain>[0]['underlying'];
    const priced = optionChain({ underlying, spot: lastPrice.rupees, vix: vixPrice.rupees, at: lastPrice.atMs, step: chainConfig.oc_step });
    return priced === undefined ? undefined : { chain: priced, spot: lastPrice, vix: vixPrice.rupees };
  }, [chainWanted, chainConfig, lastPrice, vixPrice]);

  const instrumentData = [
    { group: 'Indices', items: choices.indices.map((row) => ({ value: String(row.instrument_id), label: instrumentLabel(row) })) },
    ...(choices.contracts.length > 0 ? [{ group: 'Contracts', items: choices.contracts.map((row) => ({ value: String(row.instrument_id), label: instrumentLabel(row) })) }] : []),
    ...(contract !== undefined && !choices.contracts.some((row) => row.instrument_id === contract.instrument_id)
      ? [{ group: 'Chosen contract', items: [{ value: String(contract.instrument_id), label: instrumentLabel(contract) }] }] : []),
  ];
  const chooseInstrument = (value: string | null): void => {
    if (value === null) return;
    const id = Number(value);
    const found = choices.contracts.find((row) => row.instrument_id === id);
    if (found !== undefined) setContract(found);
    setForm({ ...form, selectedInstrument: id });
  };
  const preset = range.ok ? presetOf({ from: dates.from as IsoDate, to: dates.to as IsoDate }, today) : undefined;
  const choosePreset = (key: string | null): void => {
    const next = key === null ? undefined : presetRange(key, today);
    if (next === undefined) return;
    setDates(next);
    setForm({ ...form, dateRanges: next });
  };
  const setDate = (field: 'from' | 'to', value: string): void => {
    const next = { ...dates, [field]: value };
    setDates(next);
    const checked = checkRange(next, earliest);
    if (checked.ok) setForm({ ...form, dateRanges: checked.range });
  };
  const algorithmRows = algorithms.data?.algorithms ?? [];

  return (
    <Stack gap="md">
      <Title order={2}>Chart</Title>
      <QueryError error={choices.error} title="Could not load the instruments" />
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select label="Instrument" w={260} allowDeselect={false} searchable data={instrumentData} onSearchChange={setSearch}
          nothingFoundMessage={search.trim().length < 3 ? 'Type 3 letters of a contract' : 'No such instrument'}
          value={selected === undefined ? null : String(selected.instrument_id)} onChange={chooseInstrument} data-testid="chart-instrument" />
        <Select label="Interval" w={120} allowDeselect={false} data={INTERVAL_OPTIONS} value={String(form.window)}
          onChange={(value) => value !== null && setForm({ ...form, window: Number(value) as IntervalMinutes })} data-testid="chart-interval" />
        <Select label="Range" w={160} data={RANGE_PRESETS.map((entry) => ({ value: entry.key, label: entry.label }))} value={preset ?? null}
          placeholder="Custom" onChange={choosePreset} data-testid="chart-range-preset" />
        <TextInput label="From" type="date" w={160} value={dates.from} min={earliest} max={dates.to} onChange={(event) => setDate('from', event.currentTarget.value)} data-testid="chart-from" />
        <TextInput label="To" type="date" w={160} value={dates.to} min={earliest} max={today} onChange={(event) => setDate('to', event.currentTarget.value)} data-testid="chart-to" />
        {loaded.fetching && <Loader size="sm" />}
      </Group>
      {earliest !== undefined && <Text size="xs" c="dimmed">Your tier charts {intervalLabel(form.window)} candles from {earliest}.</Text>}
      {!range.ok && <Alert color="yellow" variant="light">{range.message}</Alert>}
      {range.ok && range.raised && <Alert color="yellow" variant="light">The range starts on {range.range.from}, the earliest date your tier may chart at this interval.</Alert>}
      <Group align="flex-end" gap="lg" wrap="wrap">
        <IndicatorGroupControl groups={groups} value={form.selectedIndicatorGroup} onChange={(id) => setForm({ ...form, selectedIndicatorGroup: id })}
          onSaved={(row) => { setSavedGroups([...savedGroups, row]); setForm({ ...form, selectedIndicatorGroup: row.indicator_config_id }); }} />
        <Select label="Signals of" placeholder="No algorithm" w={240} clearable searchable value={algorithmId ?? null} onChange={(value) => setAlgorithmId(value ?? undefined)}
          data={algorithmRows.map((row) => ({ value: row.algorithm_id, label: row.user_id === userId ? row.name : `${row.name} (published)` }))} data-testid="chart-algorithm" />
        <DrawingsPanel tool={tool} onToolChange={setTool} drawings={drawings.drawings} onRemove={drawings.remove} disabled={readOnly || selected === undefined} />
      </Group>
      <QueryError error={loaded.error} title="Could not load the candles" />
      <QueryError error={lastPrices.error} title="Could not load the last price" />
      {indicatorState.status === 'failed' && <Alert color="red" variant="light" title="The indicator group could not be drawn">{indicatorState.error}</Alert>}
      {algorithmSignals.signals.status === 'failed' && <Alert color="red" variant="light" title="The algorithm's signals could not be computed">{algorithmSignals.signals.error}</Alert>}
      {candles !== undefined && selected !== undefined && (
        <Paper withBorder p="sm">
          <Group justify="space-between" mb="xs">
            <Text fw={500} data-testid="chart-summary">
              {instrumentLabel(selected)} · {intervalLabel(form.window)} · <span data-testid="chart-candle-count">{(loaded.count ?? 0).toLocaleString('en-IN')}</span> candles (IST)
            </Text>
            <Group gap="xs">
              {signals !== undefined && <Badge variant="light" color="blue" data-testid="chart-signal-count">{signals.length} signals</Badge>}
              {(indicatorState.status === 'computing' || algorithmSignals.signals.status === 'computing') && <Loader size="xs" />}
              {loaded.synthetic && <Badge color="orange" variant="light" title="Generated history, not market data" data-testid="chart-synthetic">Synthetic data</Badge>}
              {loaded.truncated && <Badge color="gray" variant="light">Latest {(loaded.count ?? 0).toLocaleString('en-IN')} candles only</Badge>}
            </Group>
          </Group>
          {!lastPrices.loading && (
            <Text size="sm" c="dimmed" mb="xs" data-testid="chart-last-price">
              {lastPrice === undefined ? `No last price for ${selected.name} yet: no candles are stored for it.` : `Last price ${lastPriceText(lastPrice)}`}
            </Text>
          )}
          {candles.time.length === 0
            ? <Text c="dimmed">No candles in this range.</Text>
            : (
              <PriceChart candles={candles} daily={form.window === 1440} indicators={indicatorState.lines} signals={signals}
                drawings={drawings.drawings} onPriceClick={tool === undefined ? undefined : onPriceClick}
                height={460 + 140 * new Set(indicatorState.lines.filter((line) => line.pane > 0).map((line) => line.pane)).size} />
            )}
        </Paper>
      )}
      {chain !== undefined && selected !== undefined && (
        <OptionChainPanel chain={chain.chain} name={selected.name} spot={chain.spot} vix={chain.vix} synthetic={loaded.synthetic} />
      )}
      {chainWanted && lastPrice !== undefined && !lastPrices.loading && vixPrice === undefined && (
        <Text size="sm" c="dimmed">INDIA VIX has no last price: the option chain cannot be priced.</Text>
      )}
    </Stack>
  );
}

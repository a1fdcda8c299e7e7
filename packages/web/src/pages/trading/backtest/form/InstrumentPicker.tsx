// The backtest form's instrument (docs/PRODUCT.md section 3 selectedInstrument): an index, or any contract of
// the instruments table found by typing part of its symbol or name.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { QueryError } from '../../research/query-feedback';
import type { SelectedInstrument } from './form-state';

const INDICES_QUERY = `
  query BacktestIndices {
    instruments(where: { kind: { _eq: "index" } }, order_by: { index_config: { sort_order: asc } }) {
      instrument_id exchange trading_symbol name kind
    }
  }`;

const SEARCH_QUERY = `
  query BacktestInstrumentSearch($pattern: String!) {
    instruments(where: { _or: [{ trading_symbol: { _ilike: $pattern } }, { name: { _ilike: $pattern } }] }, order_by: { trading_symbol: asc }, limit: 30) {
      instrument_id exchange trading_symbol name kind
    }
  }`;

/** Characters typed before contracts are searched (indices are always listed). */
const SEARCH_MIN_LENGTH = 2;

interface InstrumentRow {
  readonly instrument_id: number;
  readonly exchange: string;
  readonly trading_symbol: string;
  readonly name: string;
  readonly kind: string;
}

const selected = (row: InstrumentRow): SelectedInstrument => ({
  instrumentId: row.instrument_id, exchange: row.exchange, tradingSymbol: row.trading_symbol, name: row.name, kind: row.kind,
});

/** The option label. @example instrumentLabel({ name: 'NIFTY 50', exchange: 'NSE', tradingSymbol: 'NIFTY' }) // 'NIFTY 50 (NSE:NIFTY)' */
export function instrumentLabel(instrument: Pick<SelectedInstrument, 'name' | 'exchange' | 'tradingSymbol'>): string {
  const symbol = `${instrument.exchange}:${instrument.tradingSymbol}`;
  return instrument.name === instrument.tradingSymbol ? symbol : `${instrument.name} (${symbol})`;
}

/** A LIKE pattern matching `text` anywhere, its own wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

interface InstrumentPickerProps {
  readonly value: SelectedInstrument | null;
  readonly onChange: (instrument: SelectedInstrument | null) => void;
  readonly error: string | undefined;
  readonly disabled: boolean;
}

/** A searchable select of indices and contracts. */
export function InstrumentPicker({ value, onChange, error, disabled }: InstrumentPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const searching = debounced.trim().length >= SEARCH_MIN_LENGTH && (value === null || debounced !== instrumentLabel(value));
  const [indices] = useQuery<{ instruments: InstrumentRow[] }>({ query: INDICES_QUERY });
  const [found] = useQuery<{ instruments: InstrumentRow[] }>({ query: SEARCH_QUERY, variables: { pattern: containsPattern(debounced) }, pause: !searching });
  const rows = useMemo(() => {
    const byId = new Map<number, SelectedInstrument>();
    if (value !== null) byId.set(value.instrumentId, value);
    for (const row of [...(indices.data?.instruments ?? []), ...(searching ? found.data?.instruments ?? [] : [])]) byId.set(row.instrument_id, selected(row));
    return byId;
  }, [indices.data, found.data, searching, value]);
  const data = useMemo(() => {
    const items = [...rows.values()].map((row) => ({ value: String(row.instrumentId), label: instrumentLabel(row), kind: row.kind }));
    const group = (kind: string, title: string) => {
      const members = items.filter((item) => (kind === 'index' ? item.kind === 'index' : item.kind !== 'index')).map(({ value: id, label }) => ({ value: id, label }));
      return members.length > 0 ? [{ group: title, items: members }] : [];
    };
    return [...group('index', 'Indices'), ...group('contract', 'Contracts and equities')];
  }, [rows]);
  return (
    <>
      <QueryError error={indices.error ?? found.error} title="Could not load the instruments" />
      <Select
        label="Instrument" placeholder="Choose an index, or type a symbol" description="Indices, or type two letters of a contract's symbol or name."
        data={data} value={value === null ? null : String(value.instrumentId)} searchable clearable disabled={disabled} error={error}
        searchValue={search} onSearchChange={setSearch}
        nothingFoundMessage={found.fetching ? 'Searching…' : 'No instrument matches'} data-testid="bt-instrument"
        onChange={(id) => onChange(id === null ? null : rows.get(Number(id)) ?? null)}
      />
    </>
  );
}

// The backtest form's algorithms (docs/PRODUCT.md section 3 algos): one or more of the user's own and the
// published ones that have a saved version; the server runs each one's latest version.
import { MultiSelect } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { QueryError } from '../../research/query-feedback';

// run_backtest takes the user's own algorithms and published ones only; staff may read everyone's
// (and a manager their managed users'), so the filter says which, not just the permission.
const ALGORITHMS_QUERY = `
  query BacktestAlgorithms($user_id: uuid!) {
    algorithms(
      where: { latest_version: { _is_null: false }, _or: [{ user_id: { _eq: $user_id } }, { published: { _eq: true } }] }
      order_by: { name: asc }
    ) {
      algorithm_id name user_id published latest_version
    }
  }`;

interface AlgorithmRow {
  readonly algorithm_id: string;
  readonly name: string;
  readonly user_id: string;
  readonly published: boolean;
  readonly latest_version: number;
}

/** The option label: own algorithms by name, others marked published, with the version that will run. */
export function algorithmLabel(row: AlgorithmRow, userId: string): string {
  return `${row.name}${row.user_id === userId ? '' : ' (published)'} · v${row.latest_version}`;
}

interface AlgorithmPickerProps {
  readonly userId: string;
  readonly value: readonly string[];
  readonly onChange: (ids: string[]) => void;
  readonly error: string | undefined;
  readonly disabled: boolean;
}

/** A searchable multi-select of the algorithms a backtest may run. */
export function AlgorithmPicker({ userId, value, onChange, error, disabled }: AlgorithmPickerProps) {
  const [result] = useQuery<{ algorithms: AlgorithmRow[] }>({ query: ALGORITHMS_QUERY, variables: { user_id: userId }, requestPolicy: 'cache-and-network' });
  const rows = result.data?.algorithms;
  const data = useMemo(() => {
    const own = (rows ?? []).filter((row) => row.user_id === userId).map((row) => ({ value: row.algorithm_id, label: algorithmLabel(row, userId) }));
    const published = (rows ?? []).filter((row) => row.user_id !== userId).map((row) => ({ value: row.algorithm_id, label: algorithmLabel(row, userId) }));
    return [...(own.length > 0 ? [{ group: 'Yours', items: own }] : []), ...(published.length > 0 ? [{ group: 'Published', items: published }] : [])];
  }, [rows, userId]);
  // An id chosen earlier whose algorithm is gone (deleted, unpublished) would be an invisible choice: drop it.
  const known = rows === undefined ? [...value] : value.filter((id) => rows.some((row) => row.algorithm_id === id));
  return (
    <>
      <QueryError error={result.error} title="Could not load the algorithms" />
      <MultiSelect
        label="Algorithms" placeholder={known.length === 0 ? 'Choose one or more' : undefined} data={data} value={known} searchable clearable
        nothingFoundMessage={rows === undefined ? 'Loading…' : 'No saved algorithm matches'} disabled={disabled} error={error}
        description="Your own and published algorithms; each runs at its latest saved version."
        data-testid="bt-algos" onChange={onChange}
      />
    </>
  );
}

// The marketplace's paper records, kept current without polling: read once from the
// marketplace_paper_records action, then read again when the key of what they depend on
// (record-signal.ts: the published strategies' states, the viewer's own orders on them and on
// follower runs, both followed by subscriptions) changes; at most once a second, the last change
// always read (a replay at 600x fills many times a second).
import { useEffect, useRef } from 'react';
import { useQuery, useSubscription, type UseQueryState } from 'urql';
import { PAPER_RECORDS, type MarketRow, type PaperRecordRow } from './queries';
import { RECORD_SIGNAL, recordSignal, type RecordSignalRow } from './record-signal';

/** The shortest wall time between two reads of the records, ms. */
export const RECORD_READ_GAP_MS = 1_000;

export function useLiveRecords(strategies: readonly MarketRow[] | undefined): UseQueryState<{ marketplace_paper_records: PaperRecordRow[] }> {
  const [records, reexecute] = useQuery<{ marketplace_paper_records: PaperRecordRow[] }>({ query: PAPER_RECORDS });
  const [orders] = useSubscription<RecordSignalRow>({ query: RECORD_SIGNAL });
  const signal = recordSignal(strategies, orders.data);
  const seen = useRef<string | undefined>(undefined);
  const lastRead = useRef(0);
  useEffect(() => {
    if (signal === undefined || signal === seen.current) return undefined;
    if (seen.current === undefined) {
      // The first key is what the first read already saw.
      seen.current = signal;
      return undefined;
    }
    const timer = setTimeout(() => {
      seen.current = signal;
      lastRead.current = Date.now();
      reexecute({ requestPolicy: 'network-only' });
    }, Math.max(0, lastRead.current + RECORD_READ_GAP_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [signal, reexecute]);
  return records;
}

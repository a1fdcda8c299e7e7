// The user's drawings on one instrument: read from and saved to user_app_configs (drawings.ts
// describes the row). Every change saves the whole list (an upsert on the table's key), so a
// reload shows exactly what was last saved. Once the user has changed the list on this page, the
// page's own list is the truth: a refetch that answers before a later save lands cannot undo it.
import { useCallback, useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { showToast } from '../../../app/toast';
import { errorMessage } from '../research/query-feedback';
import { DRAWINGS, SAVE_DRAWINGS } from './chart-queries';
import { DRAWINGS_CATEGORY, drawingsFromMetaData, drawingsMetaData, drawingsSubcategory, type ChartDrawing } from './drawings';

export interface ChartDrawingsState {
  readonly drawings: readonly ChartDrawing[];
  readonly loading: boolean;
  readonly add: (drawing: ChartDrawing) => void;
  readonly remove: (id: string) => void;
}

const NONE: readonly ChartDrawing[] = [];

export function useChartDrawings(request: { userId: string | undefined; instrumentId: number | undefined }): ChartDrawingsState {
  const { userId, instrumentId } = request;
  const subcategory = instrumentId === undefined ? '' : drawingsSubcategory(instrumentId);
  const key = `${userId ?? ''}/${subcategory}`;
  const [saved] = useQuery<{ user_app_configs: Array<{ meta_data: unknown }> }>({
    query: DRAWINGS, variables: { userId: userId ?? '', subcategory }, pause: userId === undefined || instrumentId === undefined, requestPolicy: 'network-only',
  });
  const [, save] = useMutation(SAVE_DRAWINGS);
  const [edited, setEdited] = useState<{ key: string; drawings: readonly ChartDrawing[] } | undefined>(undefined);

  const loaded = saved.data?.user_app_configs;
  const fromServer = useMemo(() => (loaded === undefined ? NONE : drawingsFromMetaData(loaded[0]?.meta_data)), [loaded]);
  const drawings = edited !== undefined && edited.key === key ? edited.drawings : fromServer;

  const persist = useCallback((next: readonly ChartDrawing[]) => {
    setEdited({ key, drawings: next });
    if (userId === undefined || instrumentId === undefined) return;
    // The row's user_id is the session's (an insert preset): the key is (user, category, subcategory).
    void save({ object: { category: DRAWINGS_CATEGORY, subcategory, meta_data: drawingsMetaData(next) } }).then((result) => {
      if (result.error !== undefined) showToast('error', errorMessage(result.error));
    });
  }, [save, key, userId, instrumentId, subcategory]);

  const add = useCallback((drawing: ChartDrawing) => persist([...drawings, drawing]), [drawings, persist]);
  const remove = useCallback((id: string) => persist(drawings.filter((drawing) => drawing.id !== id)), [drawings, persist]);
  return { drawings, loading: saved.fetching, add, remove };
}

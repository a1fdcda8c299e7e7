// /baskets/{id}: one saved basket: its name, product and legs to edit and save, the preview
// (prices, charges, margin, payoff) of the legs as they stand, placing it (PAPER; LIVE shows why
// it is unavailable), and its placements with each leg's outcome.
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useClient, useMutation, useQuery, type CombinedError } from 'urql';
import { useReadOnly } from '../../../app/update-mode';
import { errorMessage, QueryState } from '../parts/QueryState';
import { STRATEGY_WRITER_ROLES, useSubject } from '../parts/use-subject';
import { legsOfRows } from './basket-form';
import { BASKET_QUERY, PLACE_BASKET, PREVIEW_BASKET, SAVE_BASKET, type BasketPreviewData, type BasketRow } from './basket-documents';
import { BasketPlacements } from './BasketPlacements';
import { BasketPreviewPanel } from './BasketPreviewPanel';
import { LegsEditor } from './LegsEditor';
import { serverIssues, useBasketEditor, type BasketEditor } from './use-basket-editor';

/** Why LIVE is not offered (the server refuses it with the same reason). */
export const LIVE_UNAVAILABLE = 'LIVE baskets are not available yet: a broker account\'s orders go through the one OMS its strategy worker holds, '
  + 'and that worker does not place baskets yet.';

function Actions({ strategyId, editor, canWrite, onError }: {
  readonly strategyId: string; readonly editor: BasketEditor; readonly canWrite: boolean; readonly onError: (error: CombinedError | undefined) => void;
}) {
  const client = useClient();
  const [saveState, save] = useMutation(SAVE_BASKET);
  const [placeState, place] = useMutation(PLACE_BASKET);
  const [previewing, setPreviewing] = useState(false);
  const { legs, issues } = legsOfRows(editor.rows);
  const runSave = async (): Promise<void> => {
    const result = await save({ strategy_id: strategyId, name: editor.name, product: editor.product, legs });
    onError(result.error);
    if (!result.error) editor.markSaved();
  };
  const runPreview = async (): Promise<void> => {
    setPreviewing(true);
    const result = await client.query<{ preview_basket: BasketPreviewData }>(PREVIEW_BASKET, { product: editor.product, legs }, { requestPolicy: 'network-only' }).toPromise();
    setPreviewing(false);
    onError(result.error);
    editor.setPreview(result.data === undefined ? undefined : { data: result.data.preview_basket, at: Date.now() });
  };
  const runPlace = async (): Promise<void> => onError((await place({ strategy_id: strategyId, mode: 'PAPER' })).error);
  return (
    <Group gap="xs" wrap="wrap">
      {canWrite && <Button onClick={() => void runSave()} loading={saveState.fetching} disabled={issues.length > 0 || !editor.dirty} data-testid="basket-save">Save</Button>}
      <Button variant="light" onClick={() => void runPreview()} loading={previewing} disabled={issues.length > 0} data-testid="basket-preview-button">Preview</Button>
      {canWrite && (
        <Button color="teal" onClick={() => void runPlace()} loading={placeState.fetching} disabled={editor.dirty || editor.preview === undefined} data-testid="basket-place">
          Place on paper
        </Button>
      )}
      {canWrite && editor.dirty && <Text size="xs" c="dimmed">Save the basket to place it.</Text>}
      {canWrite && !editor.dirty && editor.preview === undefined && <Text size="xs" c="dimmed">Preview it before placing.</Text>}
    </Group>
  );
}

function Editor({ basket, canWrite }: { readonly basket: BasketRow; readonly canWrite: boolean }) {
  const editor = useBasketEditor(basket);
  const [error, setError] = useState<CombinedError | undefined>(undefined);
  const issues = [...editor.localIssues, ...serverIssues(error)];
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput label="Name" value={editor.name} onChange={(event) => editor.setName(event.currentTarget.value)} disabled={!canWrite} maxLength={80} miw={220} />
        <Stack gap={2}>
          <Text size="sm" fw={500}>Product</Text>
          <SegmentedControl value={editor.product} onChange={(value) => editor.setProduct(value as 'MIS' | 'NRML')} disabled={!canWrite}
            data={[{ value: 'MIS', label: 'Intraday (MIS)' }, { value: 'NRML', label: 'Carry (NRML)' }]} />
        </Stack>
        <Stack gap={2}>
          <Text size="sm" fw={500}>Mode</Text>
          <SegmentedControl value="PAPER" data={[{ value: 'PAPER', label: 'Paper' }, { value: 'LIVE', label: 'Live', disabled: true }]} aria-label="Mode" />
        </Stack>
      </Group>
      <Text size="xs" c="dimmed">{LIVE_UNAVAILABLE}</Text>
      <LegsEditor rows={editor.rows} issues={issues} today={editor.today} readOnly={!canWrite} onChange={editor.setRows} />
      {error && <Alert color="red" role="alert" title="Refused">{errorMessage(error)}</Alert>}
      <Actions strategyId={basket.strategy_id} editor={editor} canWrite={canWrite} onError={setError} />
      {editor.preview !== undefined && <BasketPreviewPanel preview={editor.preview.data} pricedAt={editor.preview.at} />}
    </Stack>
  );
}

export function BasketDetail({ strategyId }: { readonly strategyId: string }) {
  const { role } = useSubject();
  const readOnly = useReadOnly();
  const canWrite = role !== undefined && STRATEGY_WRITER_ROLES.includes(role) && !readOnly;
  const [result] = useQuery<{ strategies_by_pk: BasketRow & { kind: string } | null }>({ query: BASKET_QUERY, variables: { strategy_id: strategyId } });
  const basket = result.data?.strategies_by_pk;
  return (
    <Stack gap="md" data-testid="basket-detail">
      <Anchor component={Link} to="/baskets" size="sm">All baskets</Anchor>
      <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load the basket">
        {basket === null || basket === undefined || basket.kind !== 'basket' ? <Text c="dimmed">No basket {strategyId} of yours.</Text> : (
          <>
            <Editor basket={basket} canWrite={canWrite} />
            <Title order={4}>Placements</Title>
            <BasketPlacements strategyId={strategyId} canWrite={canWrite} />
          </>
        )}
      </QueryState>
    </Stack>
  );
}

// /baskets/{id}: one saved basket: its name, product and legs to edit and save, the preview
// (prices, charges, margin, payoff) of the legs as they stand, placing it on PAPER or LIVE, and
// its placements with each leg's outcome.
//
// LIVE places through one of the user's Zerodha accounts, offered by the deploy dialog's rule
// (parts/deploy/live-availability.ts: not for a paper-only plan, only active Zerodha accounts
// with an API key; the reason in words otherwise). The strategy worker holding the account sends
// the legs; the server waits a while for it and otherwise answers the placement pending, and the
// placements below follow the run as the worker writes each leg's outcome.
import { Alert, Anchor, Button, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useClient, useMutation, useQuery, useSubscription, type CombinedError } from 'urql';
import { useReadOnly } from '../../../app/update-mode';
import { liveAccounts, liveBlocker, type BrokerAccountRow } from '../parts/deploy/live-availability';
import { errorMessage, QueryState } from '../parts/QueryState';
import { STRATEGY_WRITER_ROLES, useSubject } from '../parts/use-subject';
import { legsOfRows } from './basket-form';
import {
  BASKET_ACCOUNTS_SUBSCRIPTION, BASKET_QUERY, PLACE_BASKET, PREVIEW_BASKET, SAVE_BASKET, type BasketPreviewData, type BasketRow,
} from './basket-documents';
import { BasketPlacements } from './BasketPlacements';
import { BasketPreviewPanel } from './BasketPreviewPanel';
import { LegsEditor } from './LegsEditor';
import { serverIssues, useBasketEditor, type BasketEditor } from './use-basket-editor';

/** Where a basket is placed: on paper, or LIVE through the chosen broker account. */
export interface PlacementMode {
  readonly mode: 'PAPER' | 'LIVE';
  readonly userBrokerId: string | null;
}

function Actions({ strategyId, editor, canWrite, placement, onError }: {
  readonly strategyId: string; readonly editor: BasketEditor; readonly canWrite: boolean; readonly placement: PlacementMode;
  readonly onError: (error: CombinedError | undefined) => void;
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
  const [pending, setPending] = useState(false);
  const runPlace = async (): Promise<void> => {
    const live = placement.mode === 'LIVE';
    const result = await place({ strategy_id: strategyId, mode: placement.mode, user_broker_id: live ? placement.userBrokerId : null });
    onError(result.error);
    setPending((result.data as { place_basket?: { pending?: boolean } } | undefined)?.place_basket?.pending === true);
  };
  const needsAccount = placement.mode === 'LIVE' && placement.userBrokerId === null;
  return (
    <Group gap="xs" wrap="wrap">
      {canWrite && <Button onClick={() => void runSave()} loading={saveState.fetching} disabled={issues.length > 0 || !editor.dirty} data-testid="basket-save">Save</Button>}
      <Button variant="light" onClick={() => void runPreview()} loading={previewing} disabled={issues.length > 0} data-testid="basket-preview-button">Preview</Button>
      {canWrite && (
        <Button color={placement.mode === 'LIVE' ? 'red' : 'teal'} onClick={() => void runPlace()} loading={placeState.fetching}
          disabled={editor.dirty || editor.preview === undefined || needsAccount} data-testid="basket-place">
          {placement.mode === 'LIVE' ? 'Place LIVE' : 'Place on paper'}
        </Button>
      )}
      {canWrite && needsAccount && <Text size="xs" c="dimmed">Choose the broker account to place through.</Text>}
      {pending && <Text size="xs" data-testid="basket-place-pending">The broker is still working on it: follow the placement below.</Text>}
      {canWrite && editor.dirty && <Text size="xs" c="dimmed">Save the basket to place it.</Text>}
      {canWrite && !editor.dirty && editor.preview === undefined && <Text size="xs" c="dimmed">Preview it before placing.</Text>}
    </Group>
  );
}

/** PAPER or LIVE, and for LIVE the account, offered as the deploy dialog offers them. */
function ModeChoice({ placement, onChange }: { readonly placement: PlacementMode; readonly onChange: (next: PlacementMode) => void }) {
  const subject = useSubject();
  const [accounts] = useSubscription<{ user_brokers: BrokerAccountRow[] }>({ query: BASKET_ACCOUNTS_SUBSCRIPTION, variables: { user_id: subject.userId }, pause: !subject.userId });
  const rows = accounts.data?.user_brokers ?? [];
  const blocker = liveBlocker({ role: subject.role, accounts: rows, legs: false });
  const usable = liveAccounts(rows);
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>Mode</Text>
      <SegmentedControl value={placement.mode} aria-label="Mode" data-testid="basket-mode"
        data={[{ value: 'PAPER', label: 'Paper' }, { value: 'LIVE', label: 'Live', disabled: blocker !== undefined }]}
        onChange={(mode) => onChange({ mode: mode === 'LIVE' ? 'LIVE' : 'PAPER', userBrokerId: mode === 'LIVE' ? placement.userBrokerId ?? usable[0]?.user_broker_id ?? null : null })} />
      {blocker !== undefined && (
        <Text size="xs" c="dimmed" data-testid="basket-live-reason">
          LIVE is unavailable: {blocker.reason}{' '}
          {blocker.link && <Anchor component={Link} to={blocker.link.to}>{blocker.link.label}</Anchor>}
        </Text>
      )}
      {placement.mode === 'LIVE' && (
        <Select label="Broker account" placeholder="Choose the account" data-testid="basket-account" value={placement.userBrokerId}
          data={usable.map((row) => ({ value: row.user_broker_id, label: `Zerodha ${row.client_id}` }))}
          onChange={(id) => onChange({ mode: 'LIVE', userBrokerId: id })} />
      )}
    </Stack>
  );
}

function Editor({ basket, canWrite }: { readonly basket: BasketRow; readonly canWrite: boolean }) {
  const editor = useBasketEditor(basket);
  const [error, setError] = useState<CombinedError | undefined>(undefined);
  const [placement, setPlacement] = useState<PlacementMode>({ mode: 'PAPER', userBrokerId: null });
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
        {canWrite && <ModeChoice placement={placement} onChange={setPlacement} />}
      </Group>
      <LegsEditor rows={editor.rows} issues={issues} today={editor.today} readOnly={!canWrite} onChange={editor.setRows} />
      {error && <Alert color="red" role="alert" title="Refused">{errorMessage(error)}</Alert>}
      <Actions strategyId={basket.strategy_id} editor={editor} canWrite={canWrite} placement={placement} onError={setError} />
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

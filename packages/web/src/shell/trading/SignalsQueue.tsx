// The pending-signals queue of MANUAL strategies (issue 18, screen 5): a header button with the
// live count of PENDING signals, opening a drawer that lists each with what the order will be and
// the time left; accept or reject one (confirm_signal), or dismiss the selected ones at once with
// docs/PRODUCT.md section 7's batched update_pending_signals_by_pk (the server records REJECTED).
import { Badge, Box, Button, Checkbox, Drawer, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSubscription } from 'urql';
import { showToast } from '../../app/toast';
import { SignalCard, type PendingSignalRow } from './SignalCard';
import { CONFIRM_SIGNAL, PENDING_SIGNALS_SUBSCRIPTION, dismissSignalsDocument } from './trading-documents';
import { errorText, useNow, useRunMutation } from './use-trading-calls';

function useSignalAnswers() {
  const run = useRunMutation();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const mark = (ids: readonly string[], on: boolean): void => setBusy((current) => {
    const next = new Set(current);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    return next;
  });
  const answer = async (id: string, accept: boolean): Promise<void> => {
    mark([id], true);
    const data = await run<{ confirm_signal: { outcome: string } }>(CONFIRM_SIGNAL, { pending_signal_id: id, accept }).finally(() => mark([id], false));
    if (data !== undefined) showToast('success', accept ? 'Signal accepted: its order goes out at the next bar.' : 'Signal rejected.');
  };
  const dismiss = async (ids: readonly string[]): Promise<void> => {
    if (ids.length === 0) return;
    mark(ids, true);
    const variables = Object.fromEntries(ids.map((id, index) => [`id${index}`, id]));
    const data = await run<Record<string, { outcome: string } | null>>(dismissSignalsDocument(ids.length), variables).finally(() => mark(ids, false));
    if (data === undefined) return;
    // A null answer: that signal was no longer PENDING (answered or expired meanwhile).
    const done = Object.values(data).filter((row) => row !== null).length;
    showToast('success', `${done} of ${ids.length} ${ids.length === 1 ? 'signal' : 'signals'} rejected.`);
  };
  return { busy, answer, dismiss };
}

function SignalList({ signals }: { readonly signals: readonly PendingSignalRow[] }) {
  const now = useNow();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const { busy, answer, dismiss } = useSignalAnswers();
  // Only signals still listed count as selected (one answered elsewhere drops out).
  const chosen = signals.map((signal) => signal.pending_signal_id).filter((id) => selected.has(id));
  const select = (id: string, on: boolean): void => setSelected((current) => {
    const next = new Set(current);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  if (signals.length === 0) return <Text c="dimmed" size="sm" data-testid="signals-empty">No signals are waiting for you.</Text>;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Checkbox
          label="Select all"
          checked={chosen.length === signals.length}
          indeterminate={chosen.length > 0 && chosen.length < signals.length}
          onChange={(event) => setSelected(event.currentTarget.checked ? new Set(signals.map((signal) => signal.pending_signal_id)) : new Set())}
        />
        <Button size="xs" color="red" variant="light" disabled={chosen.length === 0} onClick={() => void dismiss(chosen).then(() => setSelected(new Set()))} data-testid="signals-reject-selected">
          Reject selected ({chosen.length})
        </Button>
      </Group>
      {signals.map((signal) => (
        <SignalCard
          key={signal.pending_signal_id}
          signal={signal}
          now={now}
          selected={selected.has(signal.pending_signal_id)}
          busy={busy.has(signal.pending_signal_id)}
          onSelect={(on) => select(signal.pending_signal_id, on)}
          onAnswer={(accept) => void answer(signal.pending_signal_id, accept)}
        />
      ))}
    </Stack>
  );
}

export function SignalsQueue({ targetUserId }: { readonly targetUserId: string }) {
  const [opened, setOpened] = useState(false);
  const [result] = useSubscription<{ pending_signals: PendingSignalRow[] }>({ query: PENDING_SIGNALS_SUBSCRIPTION, variables: { user_id: targetUserId } });
  const signals = result.data?.pending_signals ?? [];
  return (
    <>
      <Button
        size="xs"
        variant={signals.length > 0 ? 'filled' : 'default'}
        color={signals.length > 0 ? 'blue' : 'gray'}
        onClick={() => setOpened(true)}
        aria-label={`Pending signals: ${signals.length}`}
        data-testid="signals-button"
        rightSection={<Badge size="xs" circle variant="white" color="dark" data-testid="signals-count">{signals.length}</Badge>}
      >
        ⚑<Box component="span" visibleFrom="md" ml={6}>Signals</Box>
      </Button>
      <Drawer opened={opened} onClose={() => setOpened(false)} position="right" title="Pending signals" size="md" data-testid="signals-drawer">
        <Stack gap="sm">
          <Text size="xs" c="dimmed">Signals of your MANUAL strategies wait here until you answer or they expire at the close of their session.</Text>
          {result.error !== undefined && <Text size="sm" c="red">{errorText(result.error)}</Text>}
          <SignalList signals={signals} />
        </Stack>
      </Drawer>
    </>
  );
}

// The PAPER/LIVE part of the subscribe and edit dialogs (follow-mode.ts): the mode, LIVE disabled
// with the reason in words when the plan or the accounts do not allow it, and the broker account
// (on PAPER optional, the investment counting towards it; on LIVE an active Zerodha account).
import { Alert, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { followIssue, followLiveBlocker, liveFollowAccounts, PAPER_ACCOUNT, type FollowDraft, type FollowMode } from './follow-mode';
import type { BrokerAccount } from './queries';

export function FollowModeFields({ draft, onChange, brokers, role }: {
  readonly draft: FollowDraft;
  readonly onChange: (draft: FollowDraft) => void;
  readonly brokers: readonly BrokerAccount[];
  readonly role: string | undefined;
}) {
  const blocker = followLiveBlocker({ role, brokers });
  const live = draft.mode === 'LIVE';
  const accounts = live ? liveFollowAccounts(brokers) : brokers.filter((account) => account.active);
  // The account chosen stays when the new mode offers it; LIVE otherwise starts on the first Zerodha account.
  const choose = (mode: FollowMode): void => {
    const offered = mode === 'LIVE' ? liveFollowAccounts(brokers) : brokers.filter((account) => account.active);
    const keeps = offered.some((account) => account.user_broker_id === draft.broker);
    onChange({ mode, broker: keeps ? draft.broker : mode === 'LIVE' ? offered[0]?.user_broker_id ?? PAPER_ACCOUNT : PAPER_ACCOUNT });
  };
  return (
    <Stack gap="xs">
      <SegmentedControl<FollowMode>
        aria-label="Mode"
        value={draft.mode}
        onChange={choose}
        data={[{ value: 'PAPER', label: 'PAPER' }, { value: 'LIVE', label: 'LIVE', disabled: blocker !== undefined && !live }]}
      />
      {blocker !== undefined && <Text size="xs" c="dimmed" data-testid="follow-live-blocker">LIVE: {blocker}</Text>}
      <Select
        label="Broker account"
        data-testid="follow-broker"
        data={[
          ...(live ? [] : [{ value: PAPER_ACCOUNT, label: 'Paper (no broker)' }]),
          ...accounts.map((account) => ({ value: account.user_broker_id, label: `${account.broker} · ${account.client_id}` })),
        ]}
        value={draft.broker}
        onChange={(value) => onChange({ ...draft, broker: value ?? PAPER_ACCOUNT })}
        error={followIssue(draft, brokers)}
        allowDeselect={false}
        required={live}
      />
      {live ? (
        <Alert color="orange" variant="light">
          LIVE: when the publisher runs the strategy LIVE, copies of its orders are sent to this account as real orders. A paper run of it (a replay or the simulated market) sends nothing here: a replay&apos;s copies stay on paper, and on the simulated market you are alerted instead.
          Log in to Zerodha each trading day: without a session the subscription does not trade and you are alerted.
        </Alert>
      ) : draft.broker !== PAPER_ACCOUNT && (
        <Alert color="yellow" variant="light">
          On PAPER the orders are placed on paper; the investment counts towards this account.
        </Alert>
      )}
    </Stack>
  );
}

// The administrators' global kill switch (set_global_kill_switch; GLOBAL_KILL_SWITCH_ROLES), apart
// from their own: a quiet "Stop all users" button while off (wide screens), a dark red badge while on. It stops every
// user's orders, so it says so in both confirmations.
import { Box, Button } from '@mantine/core';
import { useState } from 'react';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { TurnOnDialog } from './KillSwitchControl';
import { SET_GLOBAL_KILL_SWITCH } from './trading-documents';
import { useKillSwitches, useRunMutation } from './use-trading-calls';

export function GlobalKillSwitch({ targetUserId }: { readonly targetUserId: string }) {
  const { global } = useKillSwitches(targetUserId);
  const run = useRunMutation();
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = async (on: boolean, squareOff: boolean): Promise<void> => {
    setBusy(true);
    const data = await run(SET_GLOBAL_KILL_SWITCH, { on, square_off: squareOff }).finally(() => setBusy(false));
    if (data !== undefined) showToast(on ? 'warn' : 'success', on ? 'Global kill switch on: no order of any user leaves.' : 'Global kill switch off.');
  };
  if (global.on) {
    const turnOff = async (): Promise<void> => {
      const yes = await confirm({
        title: 'Turn the global kill switch off?', message: "Every user's running strategies may place orders again (a user's own switch still holds theirs).",
        acceptLabel: 'Turn off', rejectLabel: 'Keep it on', danger: true,
      });
      if (yes) await set(false, false);
    };
    return (
      <Button size="xs" color="red.9" variant="filled" loading={busy} onClick={() => void turnOff()} aria-label="Global kill switch is on: turn it off" data-testid="global-kill-switch-banner">
        All<Box component="span" visibleFrom="md" ml={4}>users</Box><Box component="span" ml={4}>stopped</Box>
      </Button>
    );
  }
  return (
    <>
      <Button size="xs" variant="subtle" color="red" loading={busy} onClick={() => setDialog(true)} aria-label="Global kill switch (every user)" data-testid="global-kill-switch-button" visibleFrom="md">
        Stop all users
      </Button>
      <TurnOnDialog scope="global" opened={dialog} onClose={() => setDialog(false)} onConfirm={(squareOff) => { setDialog(false); void set(true, squareOff); }} />
    </>
  );
}

// The kill switch of the account in hand (issue 18, screen 2): off, one click opens the
// confirmation (with the choice to also square off every open position); on, a red badge on every
// page whose popover lists what the switch did and turns it off after another confirmation.
// A manager acting for a user switches that user's (the server reads x-hasura-managed-user-id).
import { Box, Button, Checkbox, Group, Modal, Popover, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { confirm } from '../../app/confirm';
import { showToast } from '../../app/toast';
import { KillSwitchEffects } from './KillSwitchEffects';
import { SET_KILL_SWITCH } from './trading-documents';
import { useKillSwitches, useRunMutation } from './use-trading-calls';

interface SwitchResult {
  readonly set_kill_switch: { readonly on: boolean; readonly square_off: boolean; readonly global_on: boolean };
}

export interface TurnOnDialogProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly onConfirm: (squareOff: boolean) => void;
  /** 'account': the account in hand; 'global': every user's (administrators). */
  readonly scope: 'account' | 'global';
}

export function TurnOnDialog({ opened, onClose, onConfirm, scope }: TurnOnDialogProps) {
  const [squareOff, setSquareOff] = useState(false);
  const prefix = scope === 'global' ? 'global-kill-switch' : 'kill-switch';
  return (
    <Modal opened={opened} onClose={onClose} title={scope === 'global' ? 'Turn the global kill switch on?' : 'Turn the kill switch on?'} data-testid={`${prefix}-dialog`}>
      <Stack gap="sm">
        <Text size="sm">
          {scope === 'global'
            ? 'No new order of any user will leave, from any strategy, until you turn it off. Working orders are cancelled.'
            : 'No new order of this account will leave, from any strategy, until you turn it off. Working orders are cancelled.'}
        </Text>
        <Checkbox
          label="Also square off every open position (market orders)"
          checked={squareOff}
          onChange={(event) => setSquareOff(event.currentTarget.checked)}
          data-testid={`${prefix}-square-off`}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button color="red" onClick={() => onConfirm(squareOff)} data-testid={`${prefix}-confirm`}>Turn on</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function KillSwitchControl({ targetUserId }: { readonly targetUserId: string }) {
  const switches = useKillSwitches(targetUserId);
  const run = useRunMutation();
  const [dialog, setDialog] = useState(false);
  const [details, setDetails] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = async (on: boolean, squareOff: boolean): Promise<void> => {
    setBusy(true);
    const data = await run<SwitchResult>(SET_KILL_SWITCH, { on, square_off: squareOff }).finally(() => setBusy(false));
    if (data === undefined) return;
    showToast(on ? 'warn' : 'success', on ? 'Kill switch on: no new order leaves this account.' : 'Kill switch off: orders may leave again.');
    // Right after switching on, show what it did (the list fills as the OMS enforces it).
    setDetails(on);
  };
  const turnOff = async (): Promise<void> => {
    // The popover would sit over the confirmation.
    setDetails(false);
    const yes = await confirm({
      title: 'Turn the kill switch off?', message: 'Strategies that are still running may place orders again.', acceptLabel: 'Turn off', rejectLabel: 'Keep it on', danger: true,
    });
    if (yes) await set(false, false);
  };
  if (!switches.own.on) {
    return (
      <>
        <Button size="xs" variant="outline" color="red" loading={busy} onClick={() => setDialog(true)} aria-label="Kill switch" data-testid="kill-switch-button">
          Kill<Box component="span" visibleFrom="md" ml={4}>switch</Box>
        </Button>
        <TurnOnDialog scope="account" opened={dialog} onClose={() => setDialog(false)} onConfirm={(squareOff) => { setDialog(false); void set(true, squareOff); }} />
      </>
    );
  }
  return (
    <Popover opened={details} onChange={setDetails} position="bottom-end" width={340} withArrow shadow="md">
      <Popover.Target>
        <Button size="xs" color="red" variant="filled" onClick={() => setDetails((open) => !open)} aria-label="Kill switch is on" data-testid="kill-switch-banner">
          Kill<Box component="span" visibleFrom="md" ml={4}>switch</Box><Box component="span" ml={4}>ON</Box>
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="kill-switch-details">
        <Stack gap="sm">
          {switches.ownSince !== undefined && <KillSwitchEffects userId={targetUserId} state={switches.own} since={switches.ownSince} />}
          <Button color="red" variant="light" loading={busy} onClick={() => void turnOff()} data-testid="kill-switch-off">Turn the kill switch off</Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

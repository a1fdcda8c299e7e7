// The header's trading controls for the roles that may trade (trading-roles.ts): the kill switch
// of the account in hand, the administrators' global switch, the pending-signals queue and the
// open trading alerts. Everything is live (GraphQL subscriptions).
import { Group } from '@mantine/core';
import { GlobalKillSwitch } from './GlobalKillSwitch';
import { KillSwitchControl } from './KillSwitchControl';
import { SignalsQueue } from './SignalsQueue';
import { TradingAlerts } from './TradingAlerts';
import { mayTrade, mayUseGlobalSwitch } from './trading-roles';
import { useTargetUserId } from './use-trading-calls';

export function TradingHeader({ role, userId }: { readonly role: string | undefined; readonly userId: string }) {
  const targetUserId = useTargetUserId(userId);
  if (!mayTrade(role)) return null;
  return (
    <Group gap={6} wrap="nowrap" data-testid="trading-header">
      <TradingAlerts targetUserId={targetUserId} />
      <SignalsQueue targetUserId={targetUserId} />
      {mayUseGlobalSwitch(role) && <GlobalKillSwitch targetUserId={targetUserId} />}
      <KillSwitchControl targetUserId={targetUserId} />
    </Group>
  );
}

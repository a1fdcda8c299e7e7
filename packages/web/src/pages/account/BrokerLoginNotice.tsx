// The broker login's outcome on the brokers tab, in words (broker-login-outcome.ts), kept until
// the user closes it: the login route returns here for every ending, success or failure.
import { Alert } from '@mantine/core';
import { describeBrokerLogin, type BrokerLoginOutcome } from './broker-login-outcome';
import type { BrokerOption } from './broker-accounts';

export function BrokerLoginNotice({ outcome, brokers, onClose }: {
  readonly outcome: BrokerLoginOutcome;
  readonly brokers: readonly BrokerOption[];
  readonly onClose: () => void;
}) {
  const notice = describeBrokerLogin(outcome, (broker) => brokers.find((option) => option.broker === broker)?.name);
  return (
    <Alert color={notice.color} title={notice.title} withCloseButton onClose={onClose} data-testid="broker-login-notice" data-outcome={outcome.kind === 'ok' ? 'ok' : outcome.code}>
      {notice.message}
    </Alert>
  );
}

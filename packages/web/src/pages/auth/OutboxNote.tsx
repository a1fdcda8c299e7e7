// Said where a mail or SMS goes when the server has no mail server or SMS provider configured
// (GET /v1/auth/methods reports `delivery: outbox`): the message waits in the server's outbox,
// and `npx vyuha outbox` on the server's machine prints it. Without this a newcomer running
// `npm start` waits for a mail that never comes.
import { Code, Text } from '@mantine/core';

export function OutboxNote({ what, to }: { readonly what: 'link' | 'code' | 'mail'; readonly to: string | undefined }) {
  const target = to !== undefined && to !== '' && !/\s/.test(to) ? ` --to ${to}` : '';
  const channel = what === 'code' ? 'No SMS provider is configured on this server' : 'No mail server is configured on this server';
  return (
    <Text size="sm" mt="xs" data-testid="outbox-note">
      {channel}: the {what} is kept in its outbox. On the server&apos;s machine, <Code>npx vyuha outbox{target}</Code> prints it.
    </Text>
  );
}

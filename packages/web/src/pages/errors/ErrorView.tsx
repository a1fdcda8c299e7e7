import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export type ErrorKind = 'not-found' | 'error';

// docs/PRODUCT.md section 2's exact texts.
const MESSAGES: Readonly<Record<ErrorKind, { readonly code?: string; readonly title: string; readonly body: string }>> = {
  'not-found': { code: '404', title: 'How did you get here?', body: "Sorry we can't seem to find the page you're looking for." },
  error: { title: 'OOPS! Something went wrong here', body: 'Our experts are working to fix the issue.' },
};

/** The error page body: a 404 or any other error, with the way back home. */
export function ErrorView({ kind }: { readonly kind: ErrorKind }) {
  const message = MESSAGES[kind];
  return (
    <Stack align="center" gap="md" py="xl" ta="center" data-testid={`error-view-${kind}`}>
      {message.code === undefined ? null : <Text fz={64} fw={800} c="dimmed" lh={1} aria-hidden>{message.code}</Text>}
      <Title order={1} size="h2">{message.title}</Title>
      <Text c="dimmed">{message.body}</Text>
      <Button component={Link} to="/" data-testid="send-me-back">Send me back</Button>
    </Stack>
  );
}

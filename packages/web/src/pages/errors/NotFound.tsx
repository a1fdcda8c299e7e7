import { Button, Code, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/**
 * The '*' route (docs/PRODUCT.md section 2): "Page not found" followed by the path that matched nothing; an
 * unknown path is a 404, so the spec's 404 texts follow.
 */
export function Component() {
  const { pathname } = useLocation();
  return (
    <Stack align="center" gap="md" py="xl" ta="center" data-testid="page-not-found">
      <Text fz={64} fw={800} c="dimmed" lh={1} aria-hidden>404</Text>
      <Title order={1} size="h2">Page not found <Code fz="inherit" data-testid="not-found-path">{pathname}</Code></Title>
      <Title order={2} size="h3">How did you get here?</Title>
      <Text c="dimmed">Sorry we can&apos;t seem to find the page you&apos;re looking for.</Text>
      <Button component={Link} to="/" data-testid="send-me-back">Send me back</Button>
    </Stack>
  );
}

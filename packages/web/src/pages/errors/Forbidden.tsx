import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** What a route check shows when the page exists but is not for this user: why, and the way to the dashboard. */
export function Forbidden({ reason }: { readonly reason: string }) {
  return (
    <Stack align="center" gap="md" py="xl" ta="center" data-testid="forbidden">
      <Title order={1} size="h2">Not available</Title>
      <Text c="dimmed" maw={520}>{reason}</Text>
      <Button component={Link} to="/dashboard" data-testid="back-to-dashboard">Go to the dashboard</Button>
    </Stack>
  );
}

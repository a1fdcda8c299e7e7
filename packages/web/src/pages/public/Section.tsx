import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled section of a public page. */
export function Section({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={2} size="h3">{title}</Title>
      {children}
    </Stack>
  );
}

// Small pieces the detail page's sections share: the mode badge, a P&L's colour, a section frame.
import { Badge, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function ModeBadge({ mode }: { readonly mode: string }) {
  return <Badge variant="light" color={mode === 'LIVE' ? 'orange' : 'gray'}>{mode}</Badge>;
}

/** Green for a gain, red for a loss, plain for nothing. */
export function pnlColor(paise: number): string {
  if (paise > 0) return 'teal';
  if (paise < 0) return 'red';
  return 'var(--mantine-color-text)';
}

export function Section({ title, testId, children, extra }: {
  readonly title: string; readonly testId: string; readonly children: ReactNode; readonly extra?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" data-testid={testId} miw={0}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {extra}
        {children}
      </Stack>
    </Paper>
  );
}

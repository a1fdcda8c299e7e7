// Strategy statuses (ours: DRAFT, ACTIVE, PAUSED, STOPPED, ARCHIVED) and run statuses of docs/PRODUCT.md
// section 4 with their icons: a success check for complete, an error cross for error.
import { Badge, Group, Text, ThemeIcon } from '@mantine/core';

const STRATEGY_COLORS: Record<string, string> = {
  ACTIVE: 'teal', PAUSED: 'yellow', DRAFT: 'gray', STOPPED: 'red', ARCHIVED: 'dark',
};

export function StatusBadge({ status }: { readonly status: string }) {
  return <Badge variant="light" color={STRATEGY_COLORS[status] ?? 'gray'}>{status}</Badge>;
}

export type RunOutcome = 'success' | 'error' | 'running';

/**
 * docs/PRODUCT.md section 4's run statuses grouped by icon: COMPLETE, SUCCESS and COMPLETE: SQUARED OFF are
 * complete (check); ERROR and ERROR: SQUARED OFF are errors (cross); IN PROGRESS runs.
 * @example runOutcome('ERROR: SQUARED OFF') -> 'error'
 */
export function runOutcome(status: string): RunOutcome {
  if (status.startsWith('ERROR')) return 'error';
  if (status === 'IN PROGRESS') return 'running';
  return 'success';
}

const ICONS: Record<RunOutcome, { readonly glyph: string; readonly color: string; readonly label: string }> = {
  success: { glyph: '✓', color: 'teal', label: 'Complete' },
  error: { glyph: '✕', color: 'red', label: 'Error' },
  running: { glyph: '…', color: 'blue', label: 'In progress' },
};

export function RunStatus({ status }: { readonly status: string }) {
  const icon = ICONS[runOutcome(status)];
  return (
    <Group gap={6} wrap="nowrap">
      <ThemeIcon size="sm" radius="xl" color={icon.color} aria-label={icon.label} role="img">
        <span aria-hidden="true" style={{ fontSize: 11, fontWeight: 700 }}>{icon.glyph}</span>
      </ThemeIcon>
      <Text size="sm">{status}</Text>
    </Group>
  );
}

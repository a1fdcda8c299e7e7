// docs/PRODUCT.md section 4's run statuses with their icons: a check for the complete ones, a cross for the
// errors, and a progress bar while a run is IN PROGRESS. With `runId`, the parts carry test ids
// (`bt-progress-<run id>`, `bt-status-<run id>`, `bt-error-<run id>`), and `showError` writes a
// failed run's reason under its status instead of only in the tooltip.
import { Group, Progress, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';

export type RunStatusValue = 'COMPLETE' | 'IN PROGRESS' | 'SUCCESS' | 'ERROR' | 'ERROR: SQUARED OFF' | 'COMPLETE: SQUARED OFF';

const CHECK = 'M3 8.5l3 3 7-7';
const CROSS = 'M4 4l8 8M12 4l-8 8';

function StatusIcon({ color, path, label }: { readonly color: string; readonly path: string; readonly label: string }) {
  return (
    <ThemeIcon color={color} size="sm" radius="xl" variant="light" role="img" aria-label={label}>
      <svg viewBox="0 0 16 16" width={12} height={12} fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
        <path d={path} />
      </svg>
    </ThemeIcon>
  );
}

export interface RunStatusProps {
  readonly status: string;
  readonly progress: number;
  /** The run's error text: the tooltip, or shown under the status with `showError`. */
  readonly error?: string | null;
  readonly runId?: string;
  readonly showError?: boolean;
}

/** The status with its icon. */
export function RunStatus({ status, progress, error, runId, showError = false }: RunStatusProps) {
  const id = (part: string): string | undefined => (runId === undefined ? undefined : `bt-${part}-${runId}`);
  if (status === 'IN PROGRESS') {
    return (
      <Group gap="xs" wrap="nowrap" miw={140} data-testid={id('status')} data-status={status}>
        <Progress value={progress} size="lg" striped animated style={{ flex: 1 }} aria-label={`In progress, ${progress}%`} data-testid={id('progress')} data-progress={progress} />
        <Text size="xs" c="dimmed">{progress}%</Text>
      </Group>
    );
  }
  const failed = status.startsWith('ERROR');
  const label = (
    <Group gap={6} wrap="nowrap" data-testid={id('status')} data-status={status}>
      <StatusIcon color={failed ? 'red' : 'teal'} path={failed ? CROSS : CHECK} label={failed ? 'Failed' : 'Complete'} />
      <Text size="sm">{status}</Text>
    </Group>
  );
  if (showError && error) {
    return (
      <Stack gap={2}>
        {label}
        <Text size="xs" c="red" data-testid={id('error')}>{error}</Text>
      </Stack>
    );
  }
  return error ? <Tooltip label={error} multiline maw={360}>{label}</Tooltip> : label;
}

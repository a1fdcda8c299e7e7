// Spec section 4's run statuses with their icons: a check for the complete ones, a cross for the
// errors, and a progress bar while a run is IN PROGRESS.
import { Group, Progress, Text, ThemeIcon, Tooltip } from '@mantine/core';

export type RunStatusValue = 'COMPLETE' | 'IN PROGRESS' | 'SUCCESS' | 'ERROR' | 'ERROR: SQUARED OFF' | 'COMPLETE: SQUARED OFF';

const CHECK = 'M3 8.5l3 3 7-7';
const CROSS = 'M4 4l8 8M12 4l-8 8';

function StatusIcon({ color, path }: { readonly color: string; readonly path: string }) {
  return (
    <ThemeIcon color={color} size="sm" radius="xl" variant="light" aria-hidden>
      <svg viewBox="0 0 16 16" width={12} height={12} fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round">
        <path d={path} />
      </svg>
    </ThemeIcon>
  );
}

/** The status with its icon; `error` (the run's error text) becomes the tooltip. */
export function RunStatus({ status, progress, error }: { readonly status: string; readonly progress: number; readonly error?: string | null }) {
  if (status === 'IN PROGRESS') {
    return (
      <Group gap="xs" wrap="nowrap" miw={140}>
        <Progress value={progress} size="lg" striped animated style={{ flex: 1 }} aria-label={`In progress, ${progress}%`} />
        <Text size="xs" c="dimmed">{progress}%</Text>
      </Group>
    );
  }
  const failed = status.startsWith('ERROR');
  const label = (
    <Group gap={6} wrap="nowrap">
      <StatusIcon color={failed ? 'red' : 'teal'} path={failed ? CROSS : CHECK} />
      <Text size="sm">{status}</Text>
    </Group>
  );
  return error ? <Tooltip label={error} multiline maw={360}>{label}</Tooltip> : label;
}

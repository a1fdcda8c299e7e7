// The drawing tools (docs/PRODUCT.md section 2: Horizontal Line and Ray) and the list of the instrument's
// saved drawings, each deletable. With a tool chosen, the next click on the price pane draws.
import { ActionIcon, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../format/format';
import { drawingLabel, type ChartDrawing, type DrawingTool } from './drawings';

export function DrawingsPanel(props: {
  readonly tool: DrawingTool | undefined;
  readonly onToolChange: (tool: DrawingTool | undefined) => void;
  readonly drawings: readonly ChartDrawing[];
  readonly onRemove: (id: string) => void;
  readonly disabled: boolean;
}) {
  const { tool, onToolChange, drawings, onRemove, disabled } = props;
  return (
    <Stack gap={6}>
      <Group gap="xs" align="center">
        <Text size="sm" fw={500}>Draw</Text>
        <SegmentedControl size="xs" disabled={disabled} value={tool ?? 'none'} onChange={(value) => onToolChange(value === 'none' ? undefined : value as DrawingTool)}
          data={[{ value: 'none', label: 'Pointer' }, { value: 'horizontal', label: 'Horizontal Line' }, { value: 'ray', label: 'Ray' }]} data-testid="drawing-tool" />
        {tool !== undefined && <Text size="xs" c="dimmed">Click on the price pane to place the {tool === 'horizontal' ? 'line' : 'ray'}.</Text>}
      </Group>
      {drawings.length > 0 && (
        <Group gap="xs" data-testid="drawings-list">
          {drawings.map((drawing) => (
            <Group key={drawing.id} gap={2} wrap="nowrap" data-testid="drawing-item">
              <Text size="xs">{drawingLabel(drawing, formatDateTime)}</Text>
              <ActionIcon size="xs" variant="subtle" color="red" disabled={disabled} aria-label={`Delete ${drawingLabel(drawing, formatDateTime)}`} onClick={() => onRemove(drawing.id)}>×</ActionIcon>
            </Group>
          ))}
        </Group>
      )}
    </Stack>
  );
}

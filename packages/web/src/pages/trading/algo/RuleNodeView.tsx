// One node of the rule graph on the React Flow canvas: a condition with its expression, an
// and/or/not gate, a hold (drawn HOLD_NODE_HEIGHT high, docs/PRODUCT.md section 3), or a Buy/Sell/Exit
// action. Its own errors (expression errors with line:column) show right under it and mark it red.
import { ActionIcon, Badge, Group, Text, Textarea } from '@mantine/core';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { HoldRule, RuleData, RuleNode } from './graph-model';
import { hasInput, hasOutput } from './graph-model';

/** What every node reads from the editor: its errors, whether it may change, how to change it. */
export interface RuleNodeEditor {
  readonly errors: ReadonlyMap<string, readonly string[]>;
  readonly readOnly: boolean;
  readonly update: (id: string, change: Partial<RuleData>) => void;
  readonly remove: (id: string) => void;
}

export const RuleNodeContext = createContext<RuleNodeEditor>({ errors: new Map(), readOnly: true, update: () => undefined, remove: () => undefined });

const KIND_TITLE: Readonly<Record<RuleData['kind'], string>> = {
  condition: 'Condition', and: 'And', or: 'Or', not: 'Not', hold: 'Hold', buy: 'Buy', sell: 'Sell', exit: 'Exit',
};
const KIND_COLOR: Readonly<Record<RuleData['kind'], string>> = {
  condition: 'blue', and: 'grape', or: 'grape', not: 'grape', hold: 'orange', buy: 'teal', sell: 'red', exit: 'gray',
};

function NodeErrors({ id, messages }: { readonly id: string; readonly messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <div data-testid={`algo-node-error-${id}`} role="alert" className="algo-node-errors">
      {messages.map((message) => <Text key={message} size="xs" c="red" ff="monospace">{message}</Text>)}
    </div>
  );
}

function DeleteButton({ id }: { readonly id: string }) {
  const editor = useContext(RuleNodeContext);
  if (editor.readOnly) return null;
  return (
    <ActionIcon size="xs" variant="subtle" color="gray" className="nodrag" aria-label={`Delete ${id}`} data-testid={`algo-node-delete-${id}`}
      onClick={() => editor.remove(id)}>
      ×
    </ActionIcon>
  );
}

function ConditionBody({ id, data }: { readonly id: string; readonly data: RuleData }) {
  const editor = useContext(RuleNodeContext);
  return (
    <Textarea className="nodrag" size="xs" autosize minRows={1} maxRows={4} spellCheck={false} ff="monospace"
      aria-label={`Expression of ${id}`} data-testid={`algo-expression-${id}`} readOnly={editor.readOnly}
      placeholder="crossover(ema(close, 9), ema(close, 21))" value={data.expression ?? ''}
      onChange={(event) => editor.update(id, { expression: event.currentTarget.value })} />
  );
}

/** The hold's one line: a candle count or an `until` expression, switched with the mode button. */
function HoldBody({ id, hold }: { readonly id: string; readonly hold: HoldRule }) {
  const editor = useContext(RuleNodeContext);
  const toggle = (): void => editor.update(id, { hold: hold.mode === 'candles' ? { mode: 'until', until: '' } : { mode: 'candles', candles: 1 } });
  return (
    <div className="algo-hold-line">
      <span>Hold</span>
      <button type="button" className="nodrag algo-hold-mode" disabled={editor.readOnly} onClick={toggle} data-testid={`algo-hold-mode-${id}`}>
        {hold.mode === 'candles' ? 'for' : 'until'}
      </button>
      {hold.mode === 'candles' ? (
        <input className="nodrag algo-hold-input" type="number" min={1} step={1} style={{ width: 48 }} aria-label={`Candles of ${id}`}
          data-testid={`algo-hold-candles-${id}`} readOnly={editor.readOnly} value={hold.candles}
          onChange={(event) => editor.update(id, { hold: { mode: 'candles', candles: Number(event.currentTarget.value) } })} />
      ) : (
        <input className="nodrag algo-hold-input" spellCheck={false} style={{ width: 170 }} aria-label={`Until expression of ${id}`}
          data-testid={`algo-hold-until-${id}`} readOnly={editor.readOnly} value={hold.until} placeholder="close < open"
          onChange={(event) => editor.update(id, { hold: { mode: 'until', until: event.currentTarget.value } })} />
      )}
      {hold.mode === 'candles' && <span>candles</span>}
    </div>
  );
}

function Frame({ id, data, invalid, children }: { readonly id: string; readonly data: RuleData; readonly invalid: boolean; readonly children?: ReactNode }) {
  return (
    <div className={`algo-node algo-node-${data.kind}${invalid ? ' algo-node-invalid' : ''}`} data-testid={`algo-node-${id}`} data-invalid={invalid}>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Badge size="xs" color={KIND_COLOR[data.kind]} variant="filled">{KIND_TITLE[data.kind]}</Badge>
          <Text size="xs" c="dimmed">{id}</Text>
        </Group>
        <DeleteButton id={id} />
      </Group>
      {children}
    </div>
  );
}

/** The React Flow node type `rule`. */
export function RuleNodeView({ id, data, selected }: NodeProps<RuleNode>) {
  const editor = useContext(RuleNodeContext);
  const messages = editor.errors.get(id) ?? [];
  const invalid = messages.length > 0;
  const handles = (
    <>
      {hasInput(data.kind) && <Handle type="target" position={Position.Left} data-testid={`algo-handle-in-${id}`} />}
      {hasOutput(data.kind) && <Handle type="source" position={Position.Right} data-testid={`algo-handle-out-${id}`} />}
    </>
  );
  if (data.kind === 'hold') {
    return (
      <div className={`algo-hold${invalid ? ' algo-node-invalid' : ''}${selected ? ' algo-selected' : ''}`} data-testid={`algo-node-${id}`} data-invalid={invalid}>
        {handles}
        <HoldBody id={id} hold={data.hold ?? { mode: 'candles', candles: 1 }} />
        <DeleteButton id={id} />
        <div className="algo-hold-errors"><NodeErrors id={id} messages={messages} /></div>
      </div>
    );
  }
  return (
    <div className={selected ? 'algo-selected' : undefined}>
      {handles}
      <Frame id={id} data={data} invalid={invalid}>
        {data.kind === 'condition' && <ConditionBody id={id} data={data} />}
      </Frame>
      <NodeErrors id={id} messages={messages} />
    </div>
  );
}

// The rule graph on a React Flow canvas: drag nodes (positions go into the stored document),
// connect an output handle to an input handle, delete with the node's x or the Delete key. The
// buttons above add nodes; with a node selected, a new node that takes inputs is wired from it.
import { Button, Group, useComputedColorScheme } from '@mantine/core';
import {
  Background, Controls, ReactFlow, applyEdgeChanges, applyNodeChanges,
  type Connection, type EdgeChange, type IsValidConnection, type NodeChange, type NodeTypes,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { AlgorithmNodeType } from '@vyuha/engine';
import { useCallback, useMemo } from 'react';
import './algo-editor.css';
import { addRuleNode, canConnect, removeRuleNodes, ruleEdge, updateRuleData, type FlowGraph, type RuleData, type RuleEdge, type RuleNode } from './graph-model';
import { RuleNodeContext, RuleNodeView, type RuleNodeEditor } from './RuleNodeView';

const NODE_TYPES: NodeTypes = { rule: RuleNodeView };

const ADDABLE: readonly { kind: AlgorithmNodeType; label: string }[] = [
  { kind: 'condition', label: 'Condition' }, { kind: 'and', label: 'And' }, { kind: 'or', label: 'Or' }, { kind: 'not', label: 'Not' },
  { kind: 'hold', label: 'Hold' }, { kind: 'buy', label: 'Buy' }, { kind: 'sell', label: 'Sell' }, { kind: 'exit', label: 'Exit' },
];

/** Changes a read-only canvas still takes: selection and measured sizes, never moves or deletions. */
function allowedWhileReadOnly(change: NodeChange<RuleNode> | EdgeChange<RuleEdge>): boolean {
  return change.type === 'select' || change.type === 'dimensions';
}

export function RuleCanvas(props: {
  readonly graph: FlowGraph;
  readonly onChange: (update: (graph: FlowGraph) => FlowGraph) => void;
  readonly errors: ReadonlyMap<string, readonly string[]>;
  readonly readOnly: boolean;
}) {
  const { graph, onChange, errors, readOnly } = props;
  const colorScheme = useComputedColorScheme('dark');

  const onNodesChange = useCallback((changes: NodeChange<RuleNode>[]) => {
    const kept = readOnly ? changes.filter(allowedWhileReadOnly) : changes;
    if (kept.length > 0) onChange((current) => ({ ...current, nodes: applyNodeChanges(kept, current.nodes) }));
  }, [onChange, readOnly]);
  const onEdgesChange = useCallback((changes: EdgeChange<RuleEdge>[]) => {
    const kept = readOnly ? changes.filter(allowedWhileReadOnly) : changes;
    if (kept.length > 0) onChange((current) => ({ ...current, edges: applyEdgeChanges(kept, current.edges) }));
  }, [onChange, readOnly]);
  const onConnect = useCallback((connection: Connection) => {
    onChange((current) => (canConnect(current, connection) ? { ...current, edges: [...current.edges, ruleEdge(connection.source, connection.target)] } : current));
  }, [onChange]);
  const isValidConnection: IsValidConnection<RuleEdge> = useCallback(
    (connection) => canConnect(graph, { source: connection.source, target: connection.target }),
    [graph],
  );

  const editor: RuleNodeEditor = useMemo(() => ({
    errors,
    readOnly,
    update: (id: string, change: Partial<RuleData>) => onChange((current) => ({ ...current, nodes: updateRuleData(current.nodes, id, change) })),
    remove: (id: string) => onChange((current) => removeRuleNodes(current, [id])),
  }), [errors, readOnly, onChange]);

  const add = (kind: AlgorithmNodeType): void => {
    onChange((current) => {
      const selected = current.nodes.filter((node) => node.selected);
      const added = addRuleNode(current, { kind, from: selected.length === 1 ? selected[0]?.id : undefined });
      return { nodes: added.nodes, edges: added.edges };
    });
  };

  return (
    <>
      {!readOnly && (
        <Group gap={6}>
          {ADDABLE.map(({ kind, label }) => (
            <Button key={kind} size="compact-sm" variant="light" data-testid={`algo-add-${kind}`} onClick={() => add(kind)}>+ {label}</Button>
          ))}
        </Group>
      )}
      <div className="algo-canvas" data-testid="algo-canvas">
        <RuleNodeContext.Provider value={editor}>
          <ReactFlow<RuleNode, RuleEdge>
            nodes={graph.nodes}
            edges={graph.edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            isValidConnection={isValidConnection}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
            colorMode={colorScheme}
            fitView
            fitViewOptions={{ maxZoom: 1 }}
            minZoom={0.3}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </RuleNodeContext.Provider>
      </div>
    </>
  );
}

// The deploy and create-strategy dialogs, each in its own chunk loaded on first open: a list of
// strategies renders without their forms (deploy fields, instrument picker), which it needs only
// when a user asks for one. Closed, they render nothing.
import { Suspense, type ComponentProps } from 'react';
import { lazyPart } from '../../../../app/stale-chunks';
import type { CreateStrategyDialog } from './CreateStrategyDialog';
import type { DeployDialog } from './DeployDialog';

type DeployProps = ComponentProps<typeof DeployDialog>;
type CreateProps = ComponentProps<typeof CreateStrategyDialog>;

const DeployChunk = lazyPart<DeployProps>(() => import('./DeployDialog').then((module) => module.DeployDialog));
const CreateChunk = lazyPart<CreateProps>(() => import('./CreateStrategyDialog').then((module) => module.CreateStrategyDialog));

export function LazyDeployDialog(props: DeployProps) {
  if (!props.opened) return null;
  return <Suspense fallback={null}><DeployChunk {...props} /></Suspense>;
}

export function LazyCreateStrategyDialog(props: CreateProps) {
  if (!props.opened) return null;
  return <Suspense fallback={null}><CreateChunk {...props} /></Suspense>;
}

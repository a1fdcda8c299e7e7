// The deploy and create-strategy dialogs, each in its own chunk loaded on first open: a list of
// strategies renders without their forms (deploy fields, instrument picker), which it needs only
// when a user asks for one. Closed, they render nothing.
import { lazyPart } from '../../../../app/lazy-part';

const whenOpened = (props: { opened: boolean }) => props.opened;

export const LazyDeployDialog = lazyPart(() => import('./DeployDialog').then((module) => module.DeployDialog), { renderWhen: whenOpened });
export const LazyCreateStrategyDialog = lazyPart(
  () => import('./CreateStrategyDialog').then((module) => module.CreateStrategyDialog), { renderWhen: whenOpened });

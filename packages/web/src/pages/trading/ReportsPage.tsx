// /reports (docs/PRODUCT.md sections 2 and 6: manager, superadmin): the route's page module. The screen
// lives in ./reports/ (the server computes every figure from the stored PAPER or LIVE fills).
import { ReportsScreen } from './reports/ReportsScreen';

export function Component() {
  return <ReportsScreen />;
}

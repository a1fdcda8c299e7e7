// Cancel for a run still IN PROGRESS (the cancel_backtest action), after a confirmation; the
// outcome or the server's message as a toast (docs/PRODUCT.md section 8).
import { useMutation } from 'urql';
import { confirm } from '../../../../app/confirm';
import { showToast } from '../../../../app/toast';
import { errorMessage } from '../../research/query-feedback';

const CANCEL_MUTATION = `
  mutation CancelBacktestRun($run_id: uuid!) {
    cancel_backtest(run_id: $run_id) { run_id status cancelled }
  }`;

/** `cancel(runId)` asks, then cancels; `cancelling` while the call is out. */
export function useCancelRun(): { cancel: (runId: string) => Promise<void>; cancelling: boolean } {
  const [state, cancelBacktest] = useMutation<{ cancel_backtest: { status: string; cancelled: boolean } }>(CANCEL_MUTATION);
  const cancel = async (runId: string): Promise<void> => {
    const accepted = await confirm({
      title: 'Cancel backtest run', message: 'Stop this run? It ends in ERROR and its reserved credits are given back.',
      acceptLabel: 'Cancel run', rejectLabel: 'Keep running', danger: true,
    });
    if (!accepted) return;
    const result = await cancelBacktest({ run_id: runId });
    if (result.error) showToast('error', errorMessage(result.error));
    else if (result.data?.cancel_backtest.cancelled === true) showToast('success', 'Backtest run cancelled');
    else if (result.data) showToast('info', `The run had already ended (${result.data.cancel_backtest.status})`);
  };
  return { cancel, cancelling: state.fetching };
}

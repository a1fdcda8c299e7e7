// The order side of one paper run, whichever runs it (a replay: replay-run.ts, legs-replay.ts; a
// session on the market: market-run.ts): a paper venue scoped to the run on the run's market
// clock, an OMS attached to the run with its charges and daily limit, reconciled before the run
// acts (recoverOms), and closed however the run ends.
import type { ChargesConfig, SlippageModel } from '@vyuha/engine';
import type pg from 'pg';
import type { ManualScheduler } from '../feeds/scheduler';
import { KillSwitchWatch } from '../kill-switch-watch';
import type { Oms } from '../oms/oms';
import { recoverOms } from '../oms/oms-recovery';
import { openOms } from '../oms/open-oms';
import { PaperVenue } from '../paper/paper-venue';

export interface PaperOmsRequest {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly userId: string;
  readonly strategyId: string | null;
  /** Written on every order (the strategy's algo id), or null. */
  readonly algoId: string | null;
  /** The run's market time: the OMS's and the venue's clock. */
  readonly clock: ManualScheduler;
  /** How the venue matches: the traded instrument's tick and the strategy's slippage. */
  readonly rules: { readonly tickSizePaise: number; readonly slippage: SlippageModel };
  readonly charges: ChargesConfig;
  /** The strategy's daily max loss, paise. */
  readonly strategyMaxLossPaise?: number | undefined;
  /** Shared by every OMS of the process (one LISTEN connection); opened here when absent. */
  readonly killSwitches?: KillSwitchWatch | undefined;
  readonly log?: ((message: string) => void) | undefined;
}

/**
 * Opens the run's OMS on its paper venue, reconciles it, runs `work`, and closes both whatever
 * `work` does.
 * @example await withPaperOms({ pool, runId, userId, strategyId, algoId: null, clock, rules, charges }, async ({ oms, venue }) => ...)
 */
export async function withPaperOms<T>(request: PaperOmsRequest, work: (session: { readonly oms: Oms; readonly venue: PaperVenue }) => Promise<T>): Promise<T> {
  const { pool, runId, userId, clock } = request;
  const killSwitches = request.killSwitches ?? await KillSwitchWatch.open({ pool });
  try {
    const venue = await PaperVenue.open({ pool, userId, clock, runIds: [runId], rulesFor: () => request.rules });
    const oms = openOms({
      pool, userId, venue, scheduler: clock, killSwitches, venueScope: 'attached-runs', ...(request.log === undefined ? {} : { log: request.log }),
    });
    try {
      oms.attachRun({
        runId, userId, strategyId: request.strategyId, userBrokerId: null, algoId: request.algoId, charges: request.charges,
        ...(request.strategyMaxLossPaise === undefined ? {} : { strategyMaxLossPaise: request.strategyMaxLossPaise }),
      });
      await recoverOms(oms);
      return await work({ oms, venue });
    } finally {
      await oms.close();
    }
  } finally {
    if (request.killSwitches === undefined) await killSwitches.close();
  }
}

// Opening an account's OMS: the `Oms` plus what keeps it honest between its own calls, the kill
// switch watch. Any switch that turns on for the account (its own or the global one) is enforced
// by this OMS at once (`enforceKillSwitch`: queued orders withdrawn, working orders cancelled,
// positions squared off when chosen). The runner opens the OMS, attaches its runs, calls
// `recoverOms` and only then lets strategies act (packages/server/src/trading/README.md).
import { enforceKillSwitch } from '../kill-switch';
import { Oms } from './oms';
import type { OmsOptions } from './oms';

/** A new OMS for one account, enforcing the kill switches as they change. */
export function openOms(options: OmsOptions): Oms {
  const oms = new Oms(options);
  const stop = options.killSwitches.onChange((changed) => {
    for (const row of changed) {
      if (row.isOn && (row.userId === null || row.userId === oms.userId)) void oms.track(enforceKillSwitch(oms, row));
    }
  });
  oms.onClose(stop);
  return oms;
}

// The worker of the LIVE SIGKILL chaos test (live-chaos-sigkill.test.ts), a process of its own:
// it opens the broker account as a LIVE worker does (LiveAccounts: the day's session, the Kite venue
// against the test's stand-in, the OMS, the ticker), reconciles it with Kite, and carries out a
// fixed script of orders through the OMS: five rounds of a MARKET entry, its SL-M stop, the stop
// moved, the stop cancelled, and a MARKET square-off. A restarted worker runs the same script: the
// OMS answers each decision already stored from its rows (never sending twice), a move to the
// level the stop already has asks Kite nothing, and a cancel of an order that ended changes
// nothing. With VYUHA_CHAOS set it dies by SIGKILL at that fault point (src/trading/chaos.ts).
// Exit 0 once the script is done; 1 with the reason on stderr otherwise.
// Args: <database url> <user broker id> <run id> <strategy id> <user id> <instrument id>; env
// VYUHA_TEST_BROKER_KEY (base64), KITE_API_URL, KITE_TICKER_URL.
import pg from 'pg';
import { brokerSecretKey } from '../../src/brokers/broker-secrets';
import { WallScheduler } from '../../src/trading/feeds/scheduler';
import { KillSwitchWatch } from '../../src/trading/kill-switch-watch';
import { LiveAccounts } from '../../src/trading/live/live-accounts';
import type { Oms } from '../../src/trading/oms/oms';

const [url, userBrokerId, runId, strategyId, userId, instrument] = process.argv.slice(2);
if (url === undefined || userBrokerId === undefined || runId === undefined || strategyId === undefined || userId === undefined || instrument === undefined) {
  throw new Error('usage: live-chaos-child.ts <database url> <user broker id> <run id> <strategy id> <user id> <instrument id>');
}
const instrumentId = Number(instrument);
/** The stand-in's price of the contract (set by the test, never moved): stops below it never trigger. */
const PRICE = 120_000;

/**
 * How often the venue reads Kite's books. The script waits for each entry's fill, each stop's
 * cancellation and each exit's fill, and the stand-in's answer reaches the OMS with the next read:
 * about one interval per wait, three per round. 300 ms keeps the reads (two a round, about 7 a
 * second) under the stand-in's 10 a second beside the reconciliation's own reads.
 */
const POLL_MS = 300;

const pool = new pg.Pool({ connectionString: url, max: 6 });
const killSwitches = await KillSwitchWatch.open({ pool });
const accounts = new LiveAccounts({
  pool, keys: [brokerSecretKey(Buffer.from(process.env.VYUHA_TEST_BROKER_KEY ?? '', 'base64'))],
  kite: { apiUrl: process.env.KITE_API_URL ?? '', tickerUrl: process.env.KITE_TICKER_URL ?? '' },
  scheduler: new WallScheduler(), killSwitches, pollMs: POLL_MS, log: (line) => process.stderr.write(`${line}\n`),
});

/** Waits (up to 20 s) until the order is in one of `statuses`; its status. */
async function until(oms: Oms, clientOrderId: string, statuses: readonly string[]): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await oms.settled();
    const [view] = await oms.views([clientOrderId]);
    if (view !== undefined && statuses.includes(view.status)) return view.status;
    if (Date.now() > deadline) throw new Error(`${clientOrderId} is ${view?.status ?? 'missing'}, not ${statuses.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FINAL = ['FILLED', 'CANCELLED', 'REJECTED'];

try {
  const acquired = await accounts.acquire(userBrokerId);
  if (!acquired.ok) throw new Error(acquired.error.message);
  const { account } = acquired.value;
  const { oms } = account;
  account.attach({
    runId, userId, strategyId, userBrokerId, algoId: 'ALGO-CHAOS', charges: { kind: 'schedule', exchange: 'NSE', instrument: 'equity-intraday' },
  });
  await account.reconcile();
  const place = async (decision: number, request: { side: 'BUY' | 'SELL'; orderType: 'MARKET' | 'SL-M'; squareOff: boolean; triggerPricePaise?: number }): Promise<string | undefined> => {
    const placed = await oms.placeOrder({
      runId, decision, instrumentId, quantity: 1, product: 'MIS', referencePricePaise: PRICE, ...request,
    });
    if (!placed.ok) {
      // A square-off of a position that is not there (its entry was never received by Kite) is refused: nothing to close.
      if (placed.error.every((issue) => issue.code === 'square-off-not-reducing')) return undefined;
      throw new Error(`decision ${decision}: ${placed.error.map((issue) => issue.message).join('; ')}`);
    }
    return placed.value.orders[0]?.clientOrderId;
  };
  for (let round = 0; round < 5; round += 1) {
    const entry = await place(round * 3, { side: 'BUY', orderType: 'MARKET', squareOff: false });
    if (entry !== undefined) await until(oms, entry, FINAL);
    const stopLevel = PRICE - 500 * (round + 1);
    const stop = await place(round * 3 + 1, { side: 'SELL', orderType: 'SL-M', squareOff: true, triggerPricePaise: stopLevel });
    if (stop !== undefined) {
      const status = await until(oms, stop, ['OPEN', 'SUBMITTED', ...FINAL]);
      if (!FINAL.includes(status)) {
        const moved = await oms.modifyOrder({ clientOrderId: stop, triggerPricePaise: stopLevel + 100, referencePricePaise: PRICE });
        if (!moved.ok && !moved.error.some((issue) => issue.code === 'final-state')) throw new Error(`moving ${stop}: ${moved.error.map((issue) => issue.message).join('; ')}`);
        const cancelled = await oms.cancelIfWorking(stop);
        if (!cancelled.ok) throw new Error(`cancelling ${stop}: ${cancelled.error.message}`);
        await until(oms, stop, FINAL);
      }
    }
    const exit = await place(round * 3 + 2, { side: 'SELL', orderType: 'MARKET', squareOff: true });
    if (exit !== undefined) await until(oms, exit, FINAL);
  }
  await oms.settled();
  await acquired.value.release();
  await accounts.closeAll();
  await killSwitches.close();
  await pool.end();
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
}

// Placing a saved basket LIVE, through the user's Zerodha account, all or nothing, and the user's
// square-off choice when it stops half-way.
//
// Where it runs. A broker account's orders all go through the one OMS of the worker holding the
// account (live/live-accounts.ts), so the API process never sends them: place_basket writes the
// run (kind LIVE, IN PROGRESS, params { basket: { ...legs, prices }, userBrokerId }, every leg
// PENDING in `result`) and enqueues its `strategy-run` job in one transaction; a strategy runner
// takes the run (runner/strategy-runners.ts: LIVE basket runs are a runner's, PAPER ones never)
// and places it here. The action waits a while for the run to end and otherwise answers it
// pending; the screen follows the run row.
//
// Invariants:
// - The legs go as basket-placement.ts sends them on paper: one at a time in the basket's order,
//   decision i = leg i, the same order fields and risk checks, the same LegOutcome and
//   BasketResult, the same rule (the first leg that does not fill stops the placement, the legs
//   after it are NOT_SENT, the run ends COMPLETE or ERROR with the reason in words).
// - Fills are Kite's: a leg waits until the OMS has taken every slice's end from the broker
//   (ticker updates, postbacks, the order book poll). A leg still working after
//   LIVE_LEG_FILL_WAIT_MS of the scheduler's time is cancelled and counts NOT_FILLED (its message
//   says how much filled before the cancel; a square-off closes that part too). While
//   it places, the run holds a feed of the account's ticker (so Kite's order updates arrive) and
//   reads the order book itself once a second.
// - Nothing is sent twice: a run resumed after a crash or taken over places the legs again from
//   leg 0, and the OMS answers every decision already stored from its rows (after reconcile()).
// - Orders carry the basket's own algo id (strategies.algo_id), else the platform's
//   (VYUHA_ALGO_ID, the runners' `live.defaultAlgoId`), as a LIVE strategy's do (live-run.ts).
// - The account not usable (no session today, switched off): the run ends ERROR with the problem
//   in words and every leg NOT_SENT; held by another worker: the run is released for that one.
// - Charges: one run trades several instruments, each charged by its own model (the equity's
//   intraday or delivery schedule, the future's, the option's); the run is attached once with
//   `chargesByInstrument`, so a late fill of any leg, or one adopted on recovery, is charged right.
// - Square-offs go through the runners too, and close what the run holds, never what its legs
//   say: a MARKET order against each of the run's open positions (its positions rows, read after
//   the account's reconcile), so a leg's part filled before its cancel is closed as well.
//   - The choice: choose_basket_outcome records it and puts the same run back IN PROGRESS
//     (finished_at cleared) with its job, in one transaction; the runner sees
//     `result.choice = 'square-off'` and closes every open position (decisions 100 + k).
//   - /positions (square_off_positions): requestLiveBasketSquareOff records
//     `result.squareOffRequested` (the instruments, the status to end as) and puts the ended run
//     back IN PROGRESS with its job, in one compare-and-set transaction, so two clicks never both
//     send; one asked while the run is placing or squaring off, or waiting for its choice, is
//     refused in words. The runner closes those instruments' open positions (decisions numbered
//     after every stored one, 200 at least: basket-square-off.ts).
//   - The closing orders are fixed on the run (`result.closing`) before the first is sent, so a
//     square-off resumed after a crash sends the same decisions and the OMS answers them from
//     their rows. The outcomes go to `squareOff` (the choice's replace it, a request's are
//     appended); the run ends as it was (COMPLETE, or ERROR keeping the placement's reason) with
//     ": SQUARED OFF" once it holds nothing open.
import { randomUUID } from 'node:crypto';
import { isFinalStatus } from '@vyuha/engine';
import type pg from 'pg';
import type { JobQueue } from '../../jobs/job-queue';
import { enqueueStrategyRun } from '../../jobs/strategy-run-jobs';
import { haltedToday } from '../account-risk-settings';
import { liveAccountIssues, liveTierIssues } from '../deployments';
import type { Scheduler } from '../feeds/scheduler';
import type { LiveAccount } from '../live/live-account';
import type { LiveAccounts } from '../live/live-accounts';
import { inTransaction } from '../oms/order-rows';
import { ReleaseRun } from '../runner/live-run';
import { PaperRunFailure } from '../runner/replay-common';
import type { PaperReplaySummary } from '../runner/replay-common';
import { BasketRefusal } from './basket-legs';
import type { BasketDocument, BasketIssue, BasketLeg } from './basket-legs';
import { decisionOutcome, leftOut, quotedOrRefused, reasonOf, SQUARE_OFF_DECISION_BASE } from './basket-placement';
import type { BasketChoice, BasketResult, LegOrder, LegOutcome } from './basket-placement';
import { quoteBasket, registerLegInstruments } from './basket-quotes';
import type { QuotedLeg } from './basket-quotes';
import { closingLeg, nextSquareOffDecision } from './basket-square-off';
import type { OpenPosition } from './basket-square-off';
import { readOwnBasket } from './basket-store';

/** How long a LIVE leg may work at Zerodha (scheduler time) before it is cancelled as not filled. */
export const LIVE_LEG_FILL_WAIT_MS = 30_000;

/** How long place_basket and choose_basket_outcome wait for the run to end before answering it pending. */
export const LIVE_BASKET_ANSWER_WAIT_MS = 20_000;

/** How often (wall clock) a working leg's rows, or a waited-for run row, are read again. */
const POLL_MS = 100;

/** How often (wall clock) a working leg reads Kite's order book itself, should an update be missed. */
const BOOK_READ_MS = 1_000;

/** The run of a LIVE basket as its params hold it. */
interface BasketParams {
  readonly basket: BasketDocument & { readonly prices?: readonly number[] };
  readonly userBrokerId?: string;
}

/** A square-off asked from /positions, as the run's result records it until the next one. */
export interface LiveSquareOffRequest {
  readonly id: string;
  readonly at: string;
  /** The instruments whose open positions are closed. */
  readonly instrumentIds: readonly number[];
  /** The status the run had, and ends with again (": SQUARED OFF" added once it holds nothing). */
  readonly endAs: 'COMPLETE' | 'ERROR';
}

/** One square-off's closing orders, fixed before the first is sent. */
interface ClosingPlan {
  /** The request's id, or 'choice'. */
  readonly key: string;
  /** How many earlier square-off outcomes the result keeps before this one's. */
  readonly kept: number;
  readonly orders: ReadonlyArray<OpenPosition & { readonly decision: number }>;
}

/** A LIVE basket run's result: the placement's, and what its square-offs recorded. */
type LiveBasketResult = BasketResult & { readonly squareOffRequested?: LiveSquareOffRequest; readonly closing?: ClosingPlan };

/** What the action answers: the run, its result so far, and whether it is still placing. */
export interface LiveBasketAnswer {
  readonly runId: string;
  readonly result: BasketResult;
  readonly pending: boolean;
}

export interface LiveBasketActionContext {
  readonly pool: pg.Pool;
  readonly queue: JobQueue;
  /** The platform's algo id for baskets without their own (VYUHA_ALGO_ID). */
  readonly defaultAlgoId?: string;
  /** The clock of the checks and prices (default Date.now). */
  readonly now?: () => number;
  /** How long to wait for the run to end (default LIVE_BASKET_ANSWER_WAIT_MS). */
  readonly answerWaitMs?: number;
}

function pendingOutcome(leg: QuotedLeg): LegOutcome {
  return { index: leg.index, symbol: leg.leg.symbol, side: leg.leg.side, quantity: leg.quantity, status: 'PENDING', message: null, averagePricePaise: null, chargesPaise: 0 };
}

function resultOf(legs: readonly LegOutcome[], extra: Partial<BasketResult> = {}): BasketResult {
  const complete = legs.every((outcome) => outcome.status === 'FILLED');
  const ended = legs.every((outcome) => outcome.status !== 'PENDING');
  const needsChoice = ended && !complete && legs.some((outcome) => outcome.status === 'FILLED');
  return { basket: true, legs, complete, needsChoice, choice: null, choiceAt: null, squareOff: [], ...extra };
}

/** Reads the run row until it has ended or `waitMs` has passed (wall clock). */
async function answerOf(pool: pg.Pool, runId: string, waitMs: number): Promise<LiveBasketAnswer> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await pool.query<{ status: string; result: BasketResult }>('SELECT status, result FROM strategy_runs WHERE run_id = $1', [runId]);
    const row = rows[0];
    if (row === undefined) throw new Error(`basket run ${runId} vanished`);
    if (row.status !== 'IN PROGRESS') return { runId, result: row.result, pending: false };
    if (Date.now() >= deadline) return { runId, result: row.result, pending: true };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 2));
  }
}

/**
 * Places the user's saved basket LIVE through their broker account `userBrokerId`: checks it as a
 * LIVE deploy checks (tier, the account is theirs and can trade now: deployments.ts), writes the
 * run with its job, and waits for a runner to place it. Throws BasketRefusal, with nothing
 * written, for any issue.
 * @example await placeLiveBasket({ pool, queue }, { userId, strategyId, userBrokerId }) // { runId, pending: false, result: { complete: true, ... } }
 */
export async function placeLiveBasket(context: LiveBasketActionContext, request: {
  readonly userId: string; readonly strategyId: string; readonly userBrokerId: string | null;
}): Promise<LiveBasketAnswer> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const basket = await readOwnBasket(pool, request);
  const issues: BasketIssue[] = [...await liveTierIssues(pool, request.userId), ...await liveAccountIssues(pool, { ...request, nowMs })]
    .map((issue) => ({ field: issue.field ?? 'mode', code: issue.code, message: issue.message }));
  const { rows: strategies } = await pool.query<{ algo_id: string | null }>('SELECT algo_id FROM strategies WHERE strategy_id = $1', [request.strategyId]);
  if ((strategies[0]?.algo_id ?? null) === null && context.defaultAlgoId === undefined) {
    issues.push({ field: 'strategy_id', code: 'algo-id-missing', message: "every LIVE order carries the exchange's algo id: set the basket's algo id first (or the platform's VYUHA_ALGO_ID)" });
  }
  const halt = request.userBrokerId === null ? undefined : await haltedToday(pool, request.userBrokerId, nowMs);
  if (halt !== undefined) issues.push({ field: 'user_broker_id', code: 'broker-account', message: `user_broker_id: the account takes no new orders today: ${halt}` });
  if (issues.length > 0) throw new BasketRefusal(issues);
  const runId = await enqueueLiveBasketDocument(context, { ...request, userBrokerId: request.userBrokerId as string, document: basket.document });
  return answerOf(pool, runId, context.answerWaitMs ?? LIVE_BASKET_ANSWER_WAIT_MS);
}

/**
 * Writes the LIVE run of `document` on `userBrokerId` with its job, as placeLiveBasket does once its
 * checks pass (the caller makes them), and answers the run id without waiting; `extraParams` are
 * merged into the run's params (an ensemble sync names its ensemble there: trading/ensembles/).
 * @example await enqueueLiveBasketDocument({ pool, queue }, { userId, strategyId, userBrokerId, document }) // 'a1b2...'
 */
export async function enqueueLiveBasketDocument(context: LiveBasketActionContext, request: {
  readonly userId: string; readonly strategyId: string; readonly userBrokerId: string; readonly document: BasketDocument;
  readonly extraParams?: Record<string, unknown>;
}): Promise<string> {
  const { pool } = context;
  const nowMs = (context.now ?? Date.now)();
  const legs = await registerLegInstruments(pool, await quotedOrRefused(pool, request.document, nowMs), nowMs);
  const params: BasketParams = { ...request.extraParams, basket: { ...request.document, prices: legs.map((leg) => leg.pricePaise) }, userBrokerId: request.userBrokerId };
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, result) VALUES ($1, $2, 'LIVE', 'IN PROGRESS', $3, $4) RETURNING run_id`,
      [request.strategyId, request.userId, JSON.stringify(params), JSON.stringify(resultOf(legs.map(pendingOutcome)))]);
    const id = rows[0]!.run_id;
    await enqueueStrategyRun(context.queue, { client, runId: id });
    return id;
  });
}

/**
 * The user's choice on a LIVE basket run that stopped with legs filled: keep records it; square-off
 * records it and hands the run back to the runners (see the header), then waits as placing does.
 * Recorded once; refused, nothing changed, as on paper.
 * @example await chooseLiveBasketOutcome({ pool, queue }, { userId, runId, choice: 'square-off' }) // { pending: false, result: { choice: 'square-off', squareOff: [...] } }
 */
export async function chooseLiveBasketOutcome(context: LiveBasketActionContext, request: {
  readonly userId: string; readonly runId: string; readonly choice: BasketChoice;
}): Promise<LiveBasketAnswer> {
  const { pool } = context;
  const claimed = await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ result: BasketResult }>(
      `UPDATE strategy_runs SET result = result || jsonb_build_object('choice', $3::text, 'choiceAt', now()::text),
         status = CASE WHEN $3 = 'square-off' THEN 'IN PROGRESS' ELSE status END,
         finished_at = CASE WHEN $3 = 'square-off' THEN NULL ELSE finished_at END
       WHERE run_id = $1 AND user_id = $2 AND kind = 'LIVE' AND params ? 'basket' AND status = 'ERROR'
         AND (result ->> 'needsChoice')::boolean AND result ->> 'choice' IS NULL
       RETURNING result`, [request.runId, request.userId, request.choice]);
    if (rows[0] !== undefined && request.choice === 'square-off') await enqueueStrategyRun(context.queue, { client, runId: request.runId });
    return rows[0];
  });
  if (claimed === undefined) {
    throw new BasketRefusal([{ field: 'run_id', code: 'no-choice', message: `run ${request.runId} is not a basket placement of yours waiting for a keep or square-off choice` }]);
  }
  if (request.choice === 'keep') return { runId: request.runId, result: claimed.result, pending: false };
  return answerOf(pool, request.runId, context.answerWaitMs ?? LIVE_BASKET_ANSWER_WAIT_MS);
}

/** A run stopped half-way, waiting for the user's keep or square-off (SQL on strategy_runs). */
const AWAITING_CHOICE = `coalesce((result ->> 'needsChoice')::boolean AND result ->> 'choice' IS NULL, false)`;

/** Why the run's positions cannot be squared off now, or undefined. */
function requestIssue(runId: string, run: { readonly status: string; readonly result: LiveBasketResult | null }): BasketIssue | undefined {
  const result = run.result;
  if (run.status === 'IN PROGRESS') {
    if (result?.squareOffRequested !== undefined || result?.choice === 'square-off') {
      return { field: 'run_id', code: 'squaring-off', message: `LIVE basket run ${runId} is already being squared off by the strategy worker holding its broker account: wait for it to end` };
    }
    return { field: 'run_id', code: 'placing', message: `LIVE basket run ${runId} is still being placed: square its positions off once it has ended` };
  }
  if (result?.needsChoice === true && result.choice === null) {
    return { field: 'run_id', code: 'awaiting-choice', message: `LIVE basket run ${runId} stopped half-way and waits for your keep-or-square-off choice on Baskets: choose square off there` };
  }
  if (!run.status.startsWith('COMPLETE') && !run.status.startsWith('ERROR')) {
    return { field: 'run_id', code: 'invalid-status', message: `LIVE basket run ${runId} is ${run.status}: only an ended placement is squared off` };
  }
  return undefined;
}

/**
 * Asks the runners to close the LIVE basket run's open positions in `instrumentIds` at market
 * (see the header): records the request and puts the run back IN PROGRESS with its job, in one
 * compare-and-set transaction. Answers at once; the run ends again once the worker has closed
 * them. Throws BasketRefusal, nothing changed, for a run that is not the user's LIVE basket or
 * cannot be squared off now.
 * @example await requestLiveBasketSquareOff({ pool, queue }, { userId, runId, instrumentIds: [41] })
 */
export async function requestLiveBasketSquareOff(context: { readonly pool: pg.Pool; readonly queue: JobQueue }, request: {
  readonly userId: string; readonly runId: string; readonly instrumentIds: readonly number[];
}): Promise<void> {
  const { pool } = context;
  const read = async (): Promise<{ status: string; result: LiveBasketResult | null } | undefined> => (await pool.query<{ status: string; result: LiveBasketResult | null }>(
    `SELECT status, result FROM strategy_runs WHERE run_id = $1 AND user_id = $2 AND kind = 'LIVE' AND params ? 'basket'`, [request.runId, request.userId])).rows[0];
  const run = await read();
  if (run === undefined) throw new BasketRefusal([{ field: 'run_id', code: 'not-found', message: `run ${request.runId} is not a LIVE basket placement of yours` }]);
  const issue = requestIssue(request.runId, run);
  if (issue !== undefined) throw new BasketRefusal([issue]);
  const claimed = await inTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE strategy_runs SET status = 'IN PROGRESS', finished_at = NULL,
         result = coalesce(result, '{}') || jsonb_build_object('squareOffRequested', jsonb_build_object(
           'id', $3::text, 'at', now()::text, 'instrumentIds', $4::jsonb, 'endAs', split_part(status, ':', 1)))
       WHERE run_id = $1 AND user_id = $2 AND kind = 'LIVE' AND params ? 'basket'
         AND (status LIKE 'COMPLETE%' OR status LIKE 'ERROR%') AND NOT ${AWAITING_CHOICE}`,
      [request.runId, request.userId, randomUUID(), JSON.stringify([...new Set(request.instrumentIds)])]);
    if (rowCount === 1) await enqueueStrategyRun(context.queue, { client, runId: request.runId });
    return rowCount === 1;
  });
  if (claimed) return;
  // Another click (or the choice) took the run between the read and the update.
  const now = await read();
  throw new BasketRefusal([(now === undefined ? undefined : requestIssue(request.runId, now))
    ?? { field: 'run_id', code: 'squaring-off', message: `LIVE basket run ${request.runId} changed while the square-off was asked: look at it again` }]);
}

export interface LiveBasketRunOptions {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly accounts: LiveAccounts;
  /** The wall clock (a manual one in tests): a leg's wait for its fill is on it. */
  readonly scheduler: Scheduler;
  /** The platform's algo id for baskets without their own. */
  readonly defaultAlgoId?: string;
  /** Aborted when the run is let go (the worker stops, the run is no longer this worker's). */
  readonly signal?: AbortSignal;
  readonly log?: (message: string) => void;
}

interface RunRow {
  readonly user_id: string;
  readonly strategy_id: string | null;
  readonly params: BasketParams;
  readonly result: LiveBasketResult | null;
  readonly status_reason: string | null;
  readonly algo_id: string | null;
}

const RELEASED: PaperReplaySummary = { bars: 0, fills: 0, stopped: false, released: true, squaredOff: 0 };

/**
 * Places (or squares off, once chosen) the LIVE basket run `runId` in this worker. Resolves with
 * the summary of a run that filled every leg, or one released (`released`); throws ReleaseRun when
 * the account is held by another worker, and PaperRunFailure with the reason in words for a run
 * that ends ERROR (its `result` written first). The caller owns the run's status (strategy-runners.ts).
 */
export async function runLiveBasket(options: LiveBasketRunOptions): Promise<PaperReplaySummary> {
  const { pool, runId, scheduler } = options;
  const { rows } = await pool.query<RunRow>(
    `SELECT r.user_id, r.strategy_id, r.params, r.result, r.status_reason, s.algo_id
     FROM strategy_runs r LEFT JOIN strategies s ON s.strategy_id = r.strategy_id WHERE r.run_id = $1`, [runId]);
  const run = rows[0];
  if (run === undefined) throw new PaperRunFailure(`no basket run ${runId}`);
  const userBrokerId = run.params.userBrokerId;
  if (userBrokerId === undefined) throw new PaperRunFailure('this LIVE basket names no broker account (params.userBrokerId)');
  const algoId = run.algo_id ?? options.defaultAlgoId ?? null;
  if (algoId === null) throw new PaperRunFailure("every LIVE order carries the exchange's algo id: set the basket's algo id (or the platform's VYUHA_ALGO_ID)");
  // A request from /positions is newer than any choice (none is asked while a choice is awaited).
  const squaringOff = run.result?.squareOffRequested !== undefined || run.result?.choice === 'square-off';
  const legs = await basketLegs(pool, run, scheduler.now());
  const acquired = await options.accounts.acquire(userBrokerId);
  if (!acquired.ok) {
    if (acquired.error.code === 'held-elsewhere') throw new ReleaseRun(acquired.error.message);
    if (squaringOff) throw new PaperRunFailure(`${run.status_reason === null ? '' : `${run.status_reason}; `}the square-off was not sent: ${acquired.error.message}`);
    await writeResult(pool, runId, resultOf(legs.map((leg) => ({ ...leftOut(leg), message: `not sent: ${acquired.error.message}` }))));
    throw new PaperRunFailure(`the basket was not placed: ${acquired.error.message}`);
  }
  const { account, release } = acquired.value;
  // A feed of no instruments keeps the account's ticker connected: Kite's order updates reach the venue at once.
  const updates = account.hub.feed();
  try {
    account.attach({
      runId, userId: run.user_id, strategyId: run.strategy_id, userBrokerId, algoId, charges: (legs[0] as QuotedLeg).charges,
      chargesByInstrument: new Map(legs.map((leg) => [leg.instrumentId as number, leg.charges])),
    });
    await account.reconcile();
    const sender: LegSender = { pool, runId, account, scheduler, ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.log === undefined ? {} : { log: options.log }) };
    if (squaringOff) return await squareOffHeld(sender, run, run.result as LiveBasketResult);
    const done: LegOutcome[] = [];
    for (const leg of legs) {
      if (done.some((outcome) => outcome.status !== 'FILLED')) {
        done.push(leftOut(leg));
        continue;
      }
      const outcome = await sendLiveLeg(sender, { leg, decision: leg.index, side: leg.leg.side, squareOff: false });
      if (outcome === undefined) return RELEASED;
      done.push(outcome);
      await writeResult(pool, runId, resultOf([...done, ...legs.slice(done.length).map(pendingOutcome)]));
    }
    const result = resultOf(done);
    await writeResult(pool, runId, result);
    if (!result.complete) throw new PaperRunFailure(reasonOf(done));
    return { bars: 0, fills: done.length, stopped: false, released: false, squaredOff: 0 };
  } finally {
    updates.stop();
    await release();
  }
}

/** The run's legs resolved as when placed, at the prices the placement took (every leg: the account charges fills of any of them). */
async function basketLegs(pool: pg.Pool, run: RunRow, nowMs: number): Promise<QuotedLeg[]> {
  const { basket } = run.params;
  const document: BasketDocument = { version: basket.version, product: basket.product, legs: basket.legs };
  const quoted = await quoteBasket(pool, document, nowMs);
  if (quoted.issues.length > 0) throw new PaperRunFailure(`the basket's legs cannot be priced: ${quoted.issues.map((issue) => issue.message).join('; ')}`);
  const legs = await registerLegInstruments(pool, quoted.legs, nowMs);
  return legs.map((leg) => ({ ...leg, pricePaise: basket.prices?.[leg.index] ?? leg.pricePaise }));
}

async function writeResult(pool: pg.Pool, runId: string, result: LiveBasketResult): Promise<void> {
  await pool.query('UPDATE strategy_runs SET result = $2 WHERE run_id = $1', [runId, JSON.stringify(result)]);
}

/** The run's open positions (of `instrumentIds` when given), from its positions rows. */
async function openPositions(pool: pg.Pool, runId: string, instrumentIds: readonly number[] | undefined): Promise<OpenPosition[]> {
  const { rows } = await pool.query<OpenPosition>(
    `SELECT p.instrument_id, p.net_quantity, i.trading_symbol, i.kind FROM positions p JOIN instruments i USING (instrument_id)
     WHERE p.run_id = $1 AND p.net_quantity <> 0 AND ($2::int[] IS NULL OR p.instrument_id = ANY($2::int[])) ORDER BY p.instrument_id`,
    [runId, instrumentIds === undefined ? null : [...instrumentIds]]);
  return rows;
}

/**
 * The square-off asked of the run (its choice, or a request from /positions): a MARKET order
 * against each open position, then the run ends as it was, ": SQUARED OFF" once it holds nothing.
 */
async function squareOffHeld(sender: LegSender, run: RunRow, result: LiveBasketResult): Promise<PaperReplaySummary> {
  const { pool, runId } = sender;
  const request = result.squareOffRequested;
  const key = request?.id ?? 'choice';
  let plan = result.closing?.key === key ? result.closing : undefined;
  if (plan === undefined) {
    await sender.account.oms.settled();
    const open = await openPositions(pool, runId, request?.instrumentIds);
    const first = request === undefined ? SQUARE_OFF_DECISION_BASE : await nextSquareOffDecision(pool, runId);
    plan = { key, kept: request === undefined ? 0 : result.squareOff.length, orders: open.map((position, k) => ({ ...position, decision: first + k })) };
    await writeResult(pool, runId, { ...result, closing: plan });
  }
  const nowMs = sender.scheduler.now();
  const done: LegOutcome[] = [];
  for (const [k, order] of plan.orders.entries()) {
    const side = order.net_quantity > 0 ? 'SELL' : 'BUY';
    const refused = (message: string): LegOutcome => ({ index: k, symbol: order.trading_symbol, side, quantity: Math.abs(order.net_quantity), status: 'REFUSED', message, averagePricePaise: null, chargesPaise: 0 });
    const leg = closingLeg(order, nowMs);
    if ('field' in leg) {
      done.push(refused(leg.message));
      continue;
    }
    const quoted = await quoteBasket(pool, { version: 1, product: run.params.basket.product, legs: [leg as BasketLeg] }, nowMs);
    if (quoted.issues.length > 0) {
      done.push(refused(`not priced now, so not sent: ${quoted.issues.map((issue) => issue.message).join('; ')}`));
      continue;
    }
    const [closing] = await registerLegInstruments(pool, quoted.legs, nowMs);
    const outcome = await sendLiveLeg(sender, { leg: { ...(closing as QuotedLeg), index: k }, decision: order.decision, side, squareOff: true });
    if (outcome === undefined) return RELEASED;
    done.push(outcome);
  }
  await writeResult(pool, runId, { ...result, closing: plan, squareOff: [...result.squareOff.slice(0, plan.kept), ...done] });
  const { rows } = await pool.query<{ open: number }>('SELECT count(*)::int AS open FROM positions WHERE run_id = $1 AND net_quantity <> 0', [runId]);
  const closed = done.filter((outcome) => outcome.status === 'FILLED').reduce((sum, outcome) => sum + outcome.quantity, 0);
  // squaredOff > 0 is what ends the run SQUARED OFF (strategy-runners.ts): it holds nothing now.
  const squaredOff = rows[0]?.open === 0 ? Math.max(1, closed) : 0;
  if ((request?.endAs ?? 'ERROR') === 'COMPLETE') return { bars: 0, fills: done.length, stopped: false, released: false, squaredOff };
  const failure = new PaperRunFailure(run.status_reason ?? reasonOf(result.legs));
  failure.squaredOff = squaredOff;
  throw failure;
}

interface LegSender {
  readonly pool: pg.Pool;
  readonly runId: string;
  readonly account: LiveAccount;
  readonly scheduler: Scheduler;
  readonly signal?: AbortSignal;
  readonly log?: (message: string) => void;
}

type DecisionOutcome = Awaited<ReturnType<typeof decisionOutcome>>;

/**
 * Sends one leg through the account's OMS as basket-placement.ts sendLeg does on paper, and waits
 * for Kite to end it (cancelling it after LIVE_LEG_FILL_WAIT_MS). Undefined when the run was let go meanwhile.
 */
async function sendLiveLeg(sender: LegSender, order: LegOrder): Promise<LegOutcome | undefined> {
  const { leg } = order;
  const { oms } = sender.account;
  const instrumentId = leg.instrumentId as number;
  const base = { index: leg.index, symbol: leg.leg.symbol, side: order.side, quantity: leg.quantity };
  if (sender.account.lookup.contractOf(instrumentId) === undefined) {
    return { ...base, status: 'REFUSED', message: `${leg.leg.symbol} is not in Zerodha's instruments of today, so no order can name it`, averagePricePaise: null, chargesPaise: 0 };
  }
  const market = order.squareOff || leg.leg.order_type === 'MARKET';
  const orderType = order.squareOff ? 'MARKET' : leg.leg.order_type;
  const placed = await oms.placeOrder({
    runId: sender.runId, decision: order.decision, instrumentId, side: order.side, quantity: leg.quantity,
    orderType, product: leg.product, referencePricePaise: leg.pricePaise, squareOff: order.squareOff,
    ...(market || leg.leg.price_paise === undefined ? {} : { pricePaise: leg.leg.price_paise }),
    ...(market || leg.leg.trigger_price_paise === undefined ? {} : { triggerPricePaise: leg.leg.trigger_price_paise }),
  });
  if (!placed.ok) return { ...base, status: 'REFUSED', message: placed.error.map((issue) => issue.message).join('; '), averagePricePaise: null, chargesPaise: 0 };
  const slices = placed.value.orders.map((view) => view.clientOrderId);
  let outcome = await waitForEnd(sender, { decision: order.decision, slices: slices.length, deadline: sender.scheduler.now() + LIVE_LEG_FILL_WAIT_MS });
  if (outcome === undefined) return undefined;
  let timedOut = false;
  if (!ended(outcome, slices.length)) {
    timedOut = true;
    for (const clientOrderId of slices) {
      const cancelled = await oms.cancelIfWorking(clientOrderId);
      if (!cancelled.ok) sender.log?.(`basket leg ${leg.index + 1}: cancel of ${clientOrderId} refused (${cancelled.error.message})`);
    }
    outcome = await waitForEnd(sender, { decision: order.decision, slices: slices.length, deadline: sender.scheduler.now() + LIVE_LEG_FILL_WAIT_MS });
    if (outcome === undefined) return undefined;
  }
  const filled = outcome.filled === leg.quantity;
  const rejected = outcome.statuses.includes('REJECTED');
  const part = outcome.filled > 0 && !filled ? ` (${outcome.filled} of ${leg.quantity} filled before that)` : '';
  const unconfirmed = ended(outcome, slices.length) ? '' : ' (Zerodha has not confirmed the cancel yet)';
  const message = filled ? null : rejected ? outcome.message ?? 'rejected by Zerodha'
    : timedOut ? `the ${orderType} order did not fill within ${LIVE_LEG_FILL_WAIT_MS / 1_000} s at Zerodha, so it was cancelled${part}${unconfirmed}`
      : `${outcome.message ?? 'cancelled at Zerodha before it filled'}${part}`;
  return { ...base, status: filled ? 'FILLED' : rejected ? 'REJECTED' : 'NOT_FILLED', message, averagePricePaise: outcome.averagePricePaise, chargesPaise: outcome.chargesPaise };
}

function ended(outcome: DecisionOutcome, slices: number): boolean {
  return outcome.statuses.length >= slices && outcome.statuses.every(isFinalStatus);
}

/** The decision's stored outcome once every slice has ended, or as it stands at `deadline` (scheduler time); undefined when let go. */
async function waitForEnd(sender: LegSender, wait: { readonly decision: number; readonly slices: number; readonly deadline: number }): Promise<DecisionOutcome | undefined> {
  const { decision, slices, deadline } = wait;
  let bookReadAt = Date.now();
  for (;;) {
    if (Date.now() - bookReadAt >= BOOK_READ_MS) {
      bookReadAt = Date.now();
      const read = await sender.account.venue.pollOnce();
      if (!read.ok) sender.log?.(`basket: Kite's order book not read (${read.error})`);
    }
    await sender.account.oms.settled();
    const outcome = await decisionOutcome(sender.pool, sender.runId, decision);
    if (ended(outcome, slices) || sender.scheduler.now() >= deadline) return outcome;
    if (sender.signal?.aborted === true) return undefined;
    // Woken by the next read (wall clock), the deadline (scheduler time) or the run let go.
    const wake = new AbortController();
    const timer = setTimeout(() => wake.abort(), POLL_MS);
    const letGo = (): void => wake.abort();
    sender.signal?.addEventListener('abort', letGo, { once: true });
    await sender.scheduler.sleepUntil(deadline, wake.signal);
    clearTimeout(timer);
    sender.signal?.removeEventListener('abort', letGo);
  }
}

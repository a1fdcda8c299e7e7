// Deploying, stopping and confirming strategies, and making one from a finished backtest: what
// the API (deploy_strategy, stop_strategy, confirm_signal, create_strategy_from_backtest) asks of
// the trading runtime, as rows. The runner (a worker holding the run's lease) does the trading;
// this file only decides and records.
//
// Invariants:
// - Each call is one transaction with the rows it decides on locked (the strategy, its runs, the
//   licence rows, the signal), so two calls cannot take one licence slot twice or start two runs
//   of a strategy. A refusal rolls everything back, except an expired signal, which is recorded
//   as EXPIRED.
// - A strategy becomes ACTIVE only here (`SET LOCAL vyuha.deploying`, checked by migration
//   0019's trigger). A deployment takes one STRATEGIES/DEPLOYED licence slot and records its row
//   on the run (`licence_id`); stopping gives it back once (`releaseLicenceSlot`).
// - Making a strategy from a backtest holds the account's strategy-name lock (advisory, for the
//   transaction), so two creations never pick one default name.
// - Every change writes an audit row: the actor (a manager acting for a user, or the user) and
//   the account (`user_id` in `after`).
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { parseDeployableConfig, serializeDeployableConfig } from '@vyuha/engine';
import type { DeployableConfig } from '@vyuha/engine';
import type pg from 'pg';
import { BacktestParamsError, readBacktestRunParams } from '../jobs/backtest-params';
import type { BacktestRunParams } from '../jobs/backtest-params';
import { inTransaction } from './oms/order-rows';
import { deployableConfigOf, LIVE_UNAVAILABLE_MESSAGE, modeIssues, PAPER_ONLY_TIERS, replayIssues, runtimeIssues } from './deploy-checks';
import { brokerSessionProblem } from '../brokers/broker-sessions';
import { haltedToday } from './account-risk-settings';
import type { DeployIssue, DeployableRow, ReplayRequest } from './deploy-checks';

export type { DeployIssue, DeployIssueCode, ReplayRequest } from './deploy-checks';
export { LIVE_UNAVAILABLE_MESSAGE, REPLAY_SPEEDS } from './deploy-checks';

/** Who acts (`actorId`) on whose account (`userId`): the same person, or a manager linked to the user. */
export interface Acting {
  readonly actorId: string;
  readonly userId: string;
}

export interface DeployRequest extends Acting {
  readonly strategyId: string;
  readonly mode: string;
  /** Omitted or null: the live or simulated market. */
  readonly replay?: ReplayRequest | null;
  /** LIVE: the user's broker account the strategy trades through; PAPER: the account whose risk levels it counts against (account-risk.ts). */
  readonly userBrokerId?: string | null;
}

export interface DeployDeps {
  /** Enqueues the run's job inside the deploying transaction (`enqueueStrategyRun`). */
  enqueue(client: pg.PoolClient, runId: string): Promise<void>;
  /** The platform's exchange-issued algo id for strategies without their own (VYUHA_ALGO_ID); LIVE needs one or the other. */
  readonly defaultAlgoId?: string;
  /** The time the broker session must be usable at (default now). */
  readonly now?: () => number;
}

export interface Deployment {
  readonly runId: string;
  /** True when a PAUSED strategy's run in progress was resumed instead of a new run started. */
  readonly resumed: boolean;
}

/** What the runner reads from `strategy_runs.params` of a deployed run. */
export interface DeployedRunParams {
  readonly mode: 'PAPER' | 'LIVE';
  readonly replay: ReplayRequest | null;
  /** `serializeDeployableConfig` of the strategy's configuration at deploy time. */
  readonly config: Record<string, unknown>;
  readonly instrumentId: number;
  readonly intervalMinutes: number;
  /** LIVE: the broker account the run trades through; PAPER: the account it trades for (its account-level stops and targets). */
  readonly userBrokerId?: string;
}

/** Rolls the transaction back and answers these issues. */
class Refusal extends Error {
  constructor(readonly issues: readonly DeployIssue[]) {
    super(issues.map((issue) => issue.message).join('; '));
  }
}

/** Runs `work` in a transaction: committed when it returns (an `err` it returns is committed too), rolled back on a `Refusal`. */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<Result<T, DeployIssue[]>>): Promise<Result<T, DeployIssue[]>> {
  try {
    return await inTransaction(pool, work);
  } catch (error) {
    if (error instanceof Refusal) return err([...error.issues]);
    throw error;
  }
}

/** The actor must be the account's user or still manage it (the link may have gone since the session began). */
async function requireActing(client: pg.PoolClient, acting: Acting): Promise<void> {
  if (acting.actorId === acting.userId) return;
  const { rowCount } = await client.query('SELECT 1 FROM managers WHERE manager_id = $1 AND user_id = $2', [acting.actorId, acting.userId]);
  if (rowCount === 0) throw new Refusal([{ code: 'not-managed', message: `you do not manage user ${acting.userId}` }]);
}

interface AuditRow {
  readonly actorId: string;
  readonly action: string;
  readonly entity: string;
  readonly entityId: string;
  readonly before: unknown;
  readonly after: unknown;
}

async function audit(client: pg.PoolClient, row: AuditRow): Promise<void> {
  await client.query('INSERT INTO audit_log (actor_user_id, action, entity, entity_id, before, after) VALUES ($1, $2, $3, $4, $5, $6)',
    [row.actorId, row.action, row.entity, row.entityId, row.before === null ? null : JSON.stringify(row.before), JSON.stringify(row.after)]);
}

interface StrategyRow extends DeployableRow {
  readonly status: string;
  readonly kind: string;
  readonly instrumentId: number | null;
  readonly algoId: string | null;
}

/** The account's strategy, locked; refused as not found when it is someone else's or absent. */
async function lockStrategy(client: pg.PoolClient, request: { userId: string; strategyId: string }): Promise<StrategyRow> {
  const { rows } = await client.query<{
    status: string; kind: string; algorithm_id: string | null; algorithm_version: number | null; instrument_id: number | null;
    instrument_name: string | null; interval_minutes: number; strategy_type: string; config: Record<string, unknown>; algo_id: string | null;
  }>(
    `SELECT s.status, s.kind, s.algorithm_id, s.algorithm_version, s.instrument_id, i.name AS instrument_name, s.interval_minutes,
            s.strategy_type, s.config, s.algo_id
       FROM strategies s LEFT JOIN instruments i ON i.instrument_id = s.instrument_id
      WHERE s.strategy_id = $1 AND s.user_id = $2 FOR NO KEY UPDATE OF s`, [request.strategyId, request.userId]);
  const row = rows[0];
  if (row === undefined) throw new Refusal([{ field: 'strategy_id', code: 'not-found', message: `no strategy ${request.strategyId} in this account` }]);
  return {
    status: row.status, kind: row.kind, algorithmId: row.algorithm_id, algorithmVersion: row.algorithm_version, instrumentId: row.instrument_id,
    instrumentName: row.instrument_name, intervalMinutes: row.interval_minutes, strategyType: row.strategy_type, config: row.config,
    algoId: row.algo_id,
  };
}

/**
 * The strategy's PAPER or LIVE runs still in progress, locked (normally none or one). Strategy and
 * run rows are locked FOR NO KEY UPDATE, here and in the runner: that still serializes deploys,
 * stops and a run's end, but not a runner's order insert, whose foreign key checks take KEY SHARE
 * on the same rows (FOR UPDATE made a stop and an order insert deadlock, each holding one row).
 */
async function lockRunsInProgress(client: pg.PoolClient, strategyId: string): Promise<Array<{ runId: string; params: Record<string, unknown> }>> {
  const { rows } = await client.query<{ run_id: string; params: Record<string, unknown> }>(
    `SELECT run_id, params FROM strategy_runs WHERE strategy_id = $1 AND status = 'IN PROGRESS' AND kind IN ('PAPER', 'LIVE')
      ORDER BY started_at FOR NO KEY UPDATE`, [strategyId]);
  return rows.map((row) => ({ runId: row.run_id, params: row.params }));
}

async function permissionsOf(client: pg.PoolClient, userId: string): Promise<Set<string>> {
  const { rows } = await client.query<{ permission: string }>('SELECT permission FROM user_permissions WHERE user_id = $1', [userId]);
  return new Set(rows.map((row) => row.permission));
}

async function todayIst(client: pg.PoolClient): Promise<string> {
  const { rows } = await client.query<{ today: string }>(`SELECT ((now() AT TIME ZONE 'Asia/Kolkata')::date)::text AS today`);
  return (rows[0] as { today: string }).today;
}

/**
 * Takes a slot of the user's STRATEGIES/DEPLOYED licence valid today (IST): the row expiring
 * first that has one free, locked and incremented. Its id, or an issue saying how many are used.
 */
async function takeLicenceSlot(client: pg.PoolClient, userId: string): Promise<Result<string, DeployIssue>> {
  const { rows } = await client.query<{ id: string; available: number; utilized: number }>(
    `SELECT id, available, utilized FROM deployed_strategies
      WHERE user_id = $1 AND expiry >= (now() AT TIME ZONE 'Asia/Kolkata')::date ORDER BY expiry, id FOR NO KEY UPDATE`, [userId]);
  const free = rows.find((row) => row.utilized < row.available);
  if (free === undefined) {
    const used = rows.reduce((sum, row) => sum + row.utilized, 0);
    const available = rows.reduce((sum, row) => sum + row.available, 0);
    const message = available === 0
      ? 'no STRATEGIES/DEPLOYED licence is valid today: a licence slot is needed to deploy'
      : `every STRATEGIES/DEPLOYED licence slot is in use (${used} of ${available}): stop a strategy or extend the licence`;
    return err({ code: 'no-licence-slot', message });
  }
  await client.query('UPDATE deployed_strategies SET utilized = utilized + 1 WHERE id = $1', [free.id]);
  return ok(free.id);
}

/**
 * Gives back the licence slot a run holds (once: the run's `licence_id` is cleared). The runner
 * calls it, in its own transaction, when it ends a run that no stop request ended.
 * @example await releaseLicenceSlot(client, runId) // true the first time, false after
 */
export async function releaseLicenceSlot(client: pg.PoolClient, runId: string): Promise<boolean> {
  const { rows } = await client.query<{ licence_id: string }>(
    `UPDATE strategy_runs r SET licence_id = NULL FROM (SELECT run_id, licence_id FROM strategy_runs WHERE run_id = $1 FOR NO KEY UPDATE) held
      WHERE r.run_id = held.run_id AND held.licence_id IS NOT NULL RETURNING held.licence_id`, [runId]);
  const licenceId = rows[0]?.licence_id;
  if (licenceId === undefined) return false;
  await client.query('UPDATE deployed_strategies SET utilized = utilized - 1 WHERE id = $1 AND utilized > 0', [licenceId]);
  return true;
}

/** A PAUSED strategy's run carries on as it was deployed: a different mode or replay is refused (no replay given: as deployed). */
function resumeIssues(run: { runId: string; params: Record<string, unknown> }, request: DeployRequest): DeployIssue[] {
  const issues: DeployIssue[] = [];
  if (run.params.mode !== undefined && run.params.mode !== request.mode) {
    issues.push({ field: 'mode', code: 'resume-differs',
      message: `the paused run ${run.runId} resumes in mode ${String(run.params.mode)}; stop it to deploy in ${request.mode}` });
  }
  const runReplay = (run.params.replay ?? null) as ReplayRequest | null;
  const asked = request.replay ?? null;
  // Resuming without naming a replay carries on as deployed (the screens' Resume button does this).
  const same = asked === null ? true
    : runReplay !== null && runReplay.from === asked.from && runReplay.to === asked.to && runReplay.speed === asked.speed;
  if (!same) {
    issues.push({ field: 'replay', code: 'resume-differs',
      message: `the paused run ${run.runId} resumes with replay ${JSON.stringify(runReplay)}; stop it to deploy with replay ${JSON.stringify(asked)}` });
  }
  return issues;
}

/**
 * LIVE's own checks: a tier that may trade live, the user's own broker account of a broker Vyuha
 * trades through, a session usable now (else "log in to Zerodha for today" with the login path),
 * the market as it happens (no replay), no option legs yet, and an algo id for the orders.
 */
async function liveIssues(client: pg.PoolClient, request: DeployRequest, context: { strategy: StrategyRow; deps: DeployDeps; legs: boolean }): Promise<DeployIssue[]> {
  const issues: DeployIssue[] = [];
  issues.push(...await liveTierIssues(client, request.userId));
  if (request.replay != null) {
    issues.push({ field: 'replay', code: 'invalid-replay', message: 'a LIVE strategy trades the market as it happens: a replay is for PAPER' });
  }
  if (context.legs) issues.push({ field: 'config.legs', code: 'live-unavailable', message: 'config.legs: option legs are not traded LIVE yet: deploy them on PAPER' });
  if (context.strategy.algoId === null && context.deps.defaultAlgoId === undefined) {
    issues.push({ field: 'strategy_id', code: 'algo-id-missing', message: "every LIVE order carries the exchange's algo id: set the strategy's algo id first" });
  }
  issues.push(...await liveAccountIssues(client, { userId: request.userId, userBrokerId: request.userBrokerId, nowMs: (context.deps.now ?? Date.now)() }));
  return issues;
}

/** LIVE for the user's tier: demo and backtest accounts trade on PAPER only (also a LIVE basket's check). */
export async function liveTierIssues(client: pg.PoolClient | pg.Pool, userId: string): Promise<DeployIssue[]> {
  const tier = await client.query<{ tier: string }>('SELECT tier FROM users WHERE user_id = $1', [userId]);
  return PAPER_ONLY_TIERS.includes(tier.rows[0]?.tier ?? '') ? [{ field: 'mode', code: 'live-unavailable', message: LIVE_UNAVAILABLE_MESSAGE }] : [];
}

/**
 * The broker account a LIVE run trades through (also a LIVE basket's): chosen, the user's own, and
 * able to trade now (Zerodha, switched on, a session for today: brokerSessionProblem).
 */
export async function liveAccountIssues(client: pg.PoolClient | pg.Pool, request: { userId: string; userBrokerId: string | null | undefined; nowMs: number }): Promise<DeployIssue[]> {
  const accountId = request.userBrokerId;
  if (accountId == null) {
    return [{ field: 'user_broker_id', code: 'broker-account', message: 'user_broker_id: a LIVE strategy trades through one of your broker accounts: choose it' }];
  }
  const owned = await client.query('SELECT 1 FROM user_brokers WHERE user_broker_id = $1 AND user_id = $2', [accountId, request.userId]);
  if (owned.rowCount === 0) return [{ field: 'user_broker_id', code: 'broker-account', message: `user_broker_id: no broker account ${accountId} of yours` }];
  const problem = await brokerSessionProblem(client, { userBrokerId: accountId, nowMs: request.nowMs });
  if (problem === undefined) return [];
  const login = problem.loginPath === undefined ? '' : ` (log in at ${problem.loginPath})`;
  return [{ field: 'user_broker_id', code: 'broker-session', message: `${problem.message}${login}` }];
}

/** A PAPER run naming a broker account (for its account-level risk): one of the user's own. */
async function paperAccountIssues(client: pg.PoolClient, request: DeployRequest): Promise<DeployIssue[]> {
  const owned = await client.query('SELECT 1 FROM user_brokers WHERE user_broker_id = $1 AND user_id = $2', [request.userBrokerId, request.userId]);
  return owned.rowCount === 0 ? [{ field: 'user_broker_id', code: 'broker-account', message: `user_broker_id: no broker account ${String(request.userBrokerId)} of yours` }] : [];
}

/** Every check of a deploy that needs no licence slot; the serialized configuration when they pass. */
async function deployChecks(
  client: pg.PoolClient,
  request: DeployRequest,
  strategy: StrategyRow,
): Promise<{ issues: DeployIssue[]; config?: Record<string, unknown> }> {
  const issues: DeployIssue[] = [...modeIssues(request.mode)];
  const permissions = await permissionsOf(client, request.userId);
  if (!permissions.has('strategy:deploy')) {
    issues.push({ code: 'permission-missing', message: 'deploying a strategy needs the strategy:deploy permission, which this account does not have' });
  }
  const parsed = deployableConfigOf(strategy);
  if (!parsed.ok) issues.push(...parsed.issues);
  else if (parsed.manual && !permissions.has('strategy:manual')) {
    issues.push({ field: 'config.manual', code: 'permission-missing',
      message: 'config.manual: MANUAL mode needs the strategy:manual permission, which this account does not have' });
  }
  issues.push(...replayIssues(request.replay, await todayIst(client)));
  if (parsed.ok && !issues.some((issue) => issue.field === 'config.manual')) issues.push(...runtimeIssues(parsed.config, request.replay));
  else if (parsed.ok) issues.push(...runtimeIssues({ ...parsed.config, manual: false }, request.replay));
  return parsed.ok ? { issues, config: parsed.config } : { issues };
}

async function activate(client: pg.PoolClient, request: { strategyId: string; mode: string }): Promise<void> {
  // The guard of migration 0019 lets a strategy become ACTIVE only in a transaction that says this.
  await client.query(`SET LOCAL vyuha.deploying = 'on'`);
  await client.query(`UPDATE strategies SET status = 'ACTIVE', mode = $2 WHERE strategy_id = $1`, [request.strategyId, request.mode]);
  await client.query(`SET LOCAL vyuha.deploying = 'off'`);
}

/**
 * Deploys an algo strategy (DRAFT, PAUSED or STOPPED) on PAPER: a new PAPER run IN PROGRESS with
 * its job, a licence slot, the strategy ACTIVE; a PAUSED strategy whose run is still in progress
 * resumes that run instead (same run id, no new slot). Every issue found is returned at once.
 * @example await deployStrategy(pool, { actorId, userId, strategyId, mode: 'PAPER' }, { enqueue }) // ok({ runId, resumed: false })
 */
export function deployStrategy(pool: pg.Pool, request: DeployRequest, deps: DeployDeps): Promise<Result<Deployment, DeployIssue[]>> {
  return transaction<Deployment>(pool, async (client) => {
    await requireActing(client, request);
    const strategy = await lockStrategy(client, request);
    if (strategy.kind !== 'algo') {
      const message = `a ${strategy.kind} strategy cannot be deployed yet: only algo strategies run`;
      throw new Refusal([{ field: 'strategy_id', code: 'not-deployable', message }]);
    }
    if (!['DRAFT', 'PAUSED', 'STOPPED'].includes(strategy.status)) {
      const hint = strategy.status === 'ACTIVE' ? 'it is running already' : 'restore it to DRAFT first';
      throw new Refusal([{ field: 'strategy_id', code: 'invalid-status', message: `the strategy is ${strategy.status}: ${hint}` }]);
    }
    const { issues, config } = await deployChecks(client, request, strategy);
    if (request.mode === 'LIVE') issues.push(...await liveIssues(client, request, { strategy, deps, legs: config?.legs != null }));
    else if (request.userBrokerId != null) issues.push(...await paperAccountIssues(client, request));
    if (request.userBrokerId != null) {
      const halt = await haltedToday(client, request.userBrokerId, (deps.now ?? Date.now)());
      if (halt !== undefined) issues.push({ field: 'user_broker_id', code: 'broker-account', message: `user_broker_id: the account takes no new entries today: ${halt}` });
    }
    const running = await lockRunsInProgress(client, request.strategyId);
    const resuming = strategy.status === 'PAUSED' ? running[0] : undefined;
    if (resuming !== undefined) {
      // The paused run carries its own replay: a resume need not name it again.
      const resumeProblems = [...issues.filter((issue) => !(issue.code === 'not-runnable' && issue.field === 'replay')), ...resumeIssues(resuming, request)];
      if (resumeProblems.length > 0) throw new Refusal(resumeProblems);
      await activate(client, request);
      await audit(client, { actorId: request.actorId, action: 'strategy.resumed', entity: 'strategies', entityId: request.strategyId,
        before: { status: strategy.status }, after: { status: 'ACTIVE', user_id: request.userId, run_id: resuming.runId } });
      await deps.enqueue(client, resuming.runId);
      return ok({ runId: resuming.runId, resumed: true });
    }
    const stopping = running[0];
    if (stopping !== undefined) {
      const message = `the strategy's run ${stopping.runId} has not ended yet; deploy again once it has`;
      issues.push({ field: 'strategy_id', code: 'run-in-progress', message });
    }
    const slot = await takeLicenceSlot(client, request.userId);
    if (!slot.ok) issues.push(slot.error);
    if (issues.length > 0 || config === undefined || !slot.ok || strategy.instrumentId === null) throw new Refusal(issues);
    const params: DeployedRunParams = {
      mode: request.mode === 'LIVE' ? 'LIVE' : 'PAPER', replay: request.replay ?? null, config, instrumentId: strategy.instrumentId, intervalMinutes: strategy.intervalMinutes,
      ...(request.userBrokerId != null ? { userBrokerId: request.userBrokerId } : {}),
    };
    const { rows } = await client.query<{ run_id: string }>(
      `INSERT INTO strategy_runs (strategy_id, user_id, kind, status, params, licence_id) VALUES ($1, $2, $3, 'IN PROGRESS', $4, $5) RETURNING run_id`,
      [request.strategyId, request.userId, params.mode, JSON.stringify(params), slot.value]);
    const runId = (rows[0] as { run_id: string }).run_id;
    await activate(client, request);
    await audit(client, { actorId: request.actorId, action: 'strategy.deployed', entity: 'strategies', entityId: request.strategyId,
      before: { status: strategy.status },
      after: { status: 'ACTIVE', user_id: request.userId, run_id: runId, mode: params.mode, replay: params.replay, licence_id: slot.value } });
    await deps.enqueue(client, runId);
    return ok({ runId, resumed: false });
  });
}

export interface StopRequest extends Acting {
  readonly strategyId: string;
  /** Close the run's open positions before it ends. */
  readonly squareOff: boolean;
}

/**
 * Stops an ACTIVE or PAUSED strategy: STOPPED at once, its run in progress asked to stop
 * (`stop_requested_at`, `stop_square_off`; the runner ends it and sets its status) and its licence
 * slot given back. NOTIFY `strategy_runs` with the run id tells a listening runner at once.
 * @example await stopStrategy(pool, { actorId, userId, strategyId, squareOff: true }) // ok({ runId })
 */
export function stopStrategy(pool: pg.Pool, request: StopRequest): Promise<Result<{ runId: string | null }, DeployIssue[]>> {
  return transaction(pool, async (client) => {
    await requireActing(client, request);
    const strategy = await lockStrategy(client, request);
    if (strategy.status !== 'ACTIVE' && strategy.status !== 'PAUSED') {
      const message = `the strategy is ${strategy.status}: only an ACTIVE or PAUSED strategy can be stopped`;
      throw new Refusal([{ field: 'strategy_id', code: 'invalid-status', message }]);
    }
    const running = await lockRunsInProgress(client, request.strategyId);
    for (const run of running) {
      await client.query(
        `UPDATE strategy_runs SET stop_requested_at = coalesce(stop_requested_at, now()), stop_square_off = stop_square_off OR $2 WHERE run_id = $1`,
        [run.runId, request.squareOff]);
      await releaseLicenceSlot(client, run.runId);
      await client.query(`SELECT pg_notify('strategy_runs', $1)`, [run.runId]);
    }
    await client.query(`UPDATE strategies SET status = 'STOPPED' WHERE strategy_id = $1`, [request.strategyId]);
    const runId = running[0]?.runId ?? null;
    await audit(client, { actorId: request.actorId, action: 'strategy.stopped', entity: 'strategies', entityId: request.strategyId,
      before: { status: strategy.status },
      after: { status: 'STOPPED', user_id: request.userId, run_ids: running.map((run) => run.runId), square_off: request.squareOff } });
    return ok({ runId });
  });
}

export interface ConfirmRequest extends Acting {
  readonly pendingSignalId: string;
  readonly accept: boolean;
}

export interface Confirmation {
  readonly pendingSignalId: string;
  readonly state: 'PROCESSED';
  readonly outcome: 'ACCEPTED' | 'REJECTED';
  readonly runId: string | null;
}

/**
 * Accepts or rejects a PENDING signal of the account: PROCESSED with its outcome, and NOTIFY
 * `pending_signals` with the run id (the runner places accepted ones). A signal past its expiry
 * is recorded PROCESSED/EXPIRED and refused with the time it expired.
 * @example await confirmSignal(pool, { actorId, userId, pendingSignalId, accept: true }) // ok({ state: 'PROCESSED', outcome: 'ACCEPTED', ... })
 */
export function confirmSignal(pool: pg.Pool, request: ConfirmRequest): Promise<Result<Confirmation, DeployIssue[]>> {
  return transaction(pool, async (client) => {
    await requireActing(client, request);
    const { rows } = await client.query<{
      state: string; outcome: string | null; run_id: string | null; expired: boolean; expires_ist: string | null; run_open: boolean | null;
    }>(
      `SELECT p.state, p.outcome, p.run_id, coalesce(p.expires_at <= now(), false) AS expired,
              to_char(p.expires_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD HH24:MI:SS') AS expires_ist,
              (SELECT r.status = 'IN PROGRESS' AND r.stop_requested_at IS NULL FROM strategy_runs r WHERE r.run_id = p.run_id) AS run_open
         FROM pending_signals p WHERE p.pending_signal_id = $1 AND p.user_id = $2 FOR UPDATE OF p`, [request.pendingSignalId, request.userId]);
    const signal = rows[0];
    const field = 'pending_signal_id';
    if (signal === undefined) throw new Refusal([{ field, code: 'not-found', message: `no pending signal ${request.pendingSignalId} in this account` }]);
    if (signal.state !== 'PENDING') {
      throw new Refusal([{ field, code: 'signal-processed', message: `the signal was processed already (${signal.outcome ?? 'no outcome'})` }]);
    }
    if (signal.expired) {
      await client.query(`UPDATE pending_signals SET state = 'PROCESSED', outcome = 'EXPIRED', processed_at = greatest(now(), created_at)
                           WHERE pending_signal_id = $1`, [request.pendingSignalId]);
      await audit(client, { actorId: request.actorId, action: 'signal.expired', entity: 'pending_signals', entityId: request.pendingSignalId,
        before: { state: 'PENDING' }, after: { state: 'PROCESSED', outcome: 'EXPIRED', user_id: request.userId, run_id: signal.run_id } });
      return err([{ field, code: 'signal-expired', message: `the signal expired at ${signal.expires_ist ?? '?'} IST` }]);
    }
    if (signal.run_open === false) {
      const message = `the signal's run ${signal.run_id ?? ''} has ended or is stopping: nothing would place it`;
      throw new Refusal([{ field, code: 'run-ended', message }]);
    }
    const outcome = request.accept ? 'ACCEPTED' : 'REJECTED';
    await client.query(`UPDATE pending_signals SET state = 'PROCESSED', outcome = $2, processed_at = greatest(now(), created_at)
                         WHERE pending_signal_id = $1`, [request.pendingSignalId, outcome]);
    await client.query(`SELECT pg_notify('pending_signals', $1)`, [signal.run_id ?? '']);
    await audit(client, { actorId: request.actorId, action: request.accept ? 'signal.accepted' : 'signal.rejected', entity: 'pending_signals',
      entityId: request.pendingSignalId, before: { state: 'PENDING' },
      after: { state: 'PROCESSED', outcome, user_id: request.userId, run_id: signal.run_id } });
    return ok({ pendingSignalId: request.pendingSignalId, state: 'PROCESSED', outcome, runId: signal.run_id });
  });
}

export interface FromBacktestRequest extends Acting {
  readonly backtestRunId: string;
  /** Non-blank (the API checks). Omitted: a default naming what runs, numbered " (2)", " (3)" ... while taken. */
  readonly name?: string | null;
}

/** The deployable configuration of a backtest run's params, and the names the default strategy name uses. */
async function configOfBacktest(client: pg.PoolClient, request: FromBacktestRequest, stored: unknown): Promise<{ config: DeployableConfig; instrumentId: number; defaultName: string }> {
  const field = 'backtest_run_id';
  let params: BacktestRunParams;
  try {
    params = readBacktestRunParams(stored);
  } catch (error) {
    if (!(error instanceof BacktestParamsError)) throw error;
    throw new Refusal([{ field, code: 'invalid-config', message: `the backtest's parameters cannot be read: ${error.message}` }]);
  }
  const { rows } = await client.query<{ instrument_name: string; trading_symbol: string; algorithm_name: string | null; usable: boolean | null }>(
    `SELECT i.name AS instrument_name, i.trading_symbol, a.name AS algorithm_name, a.user_id = $3 OR a.published AS usable
       FROM instruments i LEFT JOIN algorithms a ON a.algorithm_id = $2::uuid WHERE i.instrument_id = $1`,
    [params.instrument.instrumentId, params.algorithm.algorithmId, request.userId]);
  const names = rows[0];
  if (names === undefined) {
    throw new Refusal([{ field, code: 'invalid-config', message: `the backtest's instrument ${params.instrument.tradingSymbol} is no longer listed` }]);
  }
  // As insert_strategies_one's check: a strategy runs an algorithm of the account's own or a published one.
  if (names.usable !== true) {
    const message = `the backtest ran algorithm ${names.algorithm_name ?? params.algorithm.algorithmId}, which is neither this account's nor published any more`;
    throw new Refusal([{ field, code: 'not-deployable', message }]);
  }
  // The instrument as the strategy row's columns name it (deploy checks config.instrument against instruments.name).
  const parsed = parseDeployableConfig({
    algorithm: { id: params.algorithm.algorithmId, version: params.algorithm.version }, legs: params.tradeInstrumentsConfig ?? null,
    instrument: names.instrument_name, interval: params.interval, type: params.strategyType, investment: params.investmentPaise,
    sizing: { kind: 'all-in' }, manual: false,
  });
  if (!parsed.ok) {
    throw new Refusal(parsed.error.map((issue) => ({ field, code: 'invalid-config' as const,
      message: `the backtest's configuration cannot be deployed: config.${issue.field} ${issue.message}` })));
  }
  const { from, to } = params.dateRange;
  const defaultName = `${names.algorithm_name ?? 'algorithm'} on ${names.trading_symbol}, ${params.interval}-minute, ${params.strategyType} `
    + `(from the backtest of ${from} to ${to})`;
  return { config: parsed.value, instrumentId: params.instrument.instrumentId, defaultName };
}

/** The name the new strategy takes: the one asked for unless the account uses it, else the default or its first free " (n)". */
async function strategyName(client: pg.PoolClient, request: FromBacktestRequest, defaultName: string): Promise<string> {
  // One creation per account at a time, so two cannot both find a name free.
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('vyuha.strategy-name:' || $1, 0))`, [request.userId]);
  const wanted = request.name?.trim();
  const base = wanted ?? defaultName;
  const { rows } = await client.query<{ name: string }>('SELECT name FROM strategies WHERE user_id = $1 AND left(name, length($2)) = $2', [request.userId, base]);
  const taken = new Set(rows.map((row) => row.name));
  if (wanted !== undefined) {
    if (taken.has(wanted)) {
      throw new Refusal([{ field: 'name', code: 'name-taken', message: `this account already has a strategy named ${JSON.stringify(wanted)}: choose another name` }]);
    }
    return wanted;
  }
  let name = defaultName;
  for (let copy = 2; taken.has(name); copy += 1) name = `${defaultName} (${copy})`;
  return name;
}

/**
 * "Deploy this": a DRAFT PAPER algo strategy of the account that runs what one of its COMPLETE
 * backtest runs ran (algorithm version, option legs or the instrument, interval, type, investment;
 * all-in sizing, not MANUAL), its configuration checked by the engine as deploy will check it.
 * Another account's run is not found; a run not COMPLETE, not a backtest, or whose configuration
 * cannot be deployed is refused at `backtest_run_id`; a name the account uses at `name`.
 * @example await strategyFromBacktest(pool, { actorId, userId, backtestRunId }) // ok({ strategyId })
 */
export function strategyFromBacktest(pool: pg.Pool, request: FromBacktestRequest): Promise<Result<{ strategyId: string }, DeployIssue[]>> {
  return transaction(pool, async (client) => {
    await requireActing(client, request);
    const field = 'backtest_run_id';
    const id = request.backtestRunId;
    const { rows } = await client.query<{ kind: string; status: string; params: unknown }>(
      'SELECT kind, status, params FROM strategy_runs WHERE run_id = $1 AND user_id = $2', [id, request.userId]);
    const run = rows[0];
    if (run === undefined) throw new Refusal([{ field, code: 'not-found', message: `no backtest run ${id} in this account` }]);
    if (run.kind !== 'BACKTEST') throw new Refusal([{ field, code: 'not-deployable', message: `run ${id} is a ${run.kind} run, not a backtest` }]);
    if (run.status !== 'COMPLETE') {
      throw new Refusal([{ field, code: 'invalid-status', message: `the backtest run ${id} is ${run.status}: only a COMPLETE backtest becomes a strategy` }]);
    }
    const { config, instrumentId, defaultName } = await configOfBacktest(client, request, run.params);
    const name = await strategyName(client, request, defaultName);
    const stored = serializeDeployableConfig(config);
    const inserted = await client.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, strategy_type, mode, status, kind, algorithm_id, algorithm_version, instrument_id, interval_minutes, config)
       VALUES ($1, $2, $3, 'PAPER', 'DRAFT', 'algo', $4, $5, $6, $7, $8) RETURNING strategy_id`,
      [request.userId, name, config.type, config.algorithm.id, config.algorithm.version, instrumentId, config.interval, JSON.stringify(stored)]);
    const strategyId = (inserted.rows[0] as { strategy_id: string }).strategy_id;
    await audit(client, { actorId: request.actorId, action: 'strategy.created', entity: 'strategies', entityId: strategyId, before: null,
      after: { status: 'DRAFT', user_id: request.userId, name, backtest_run_id: id, config: stored } });
    return ok({ strategyId });
  });
}

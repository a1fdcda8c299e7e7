// The account watch: account-level stop-loss, target and trailing (account_risk, migration 0026)
// enforced on every broker account that PAPER or LIVE runs trade on (a run's `params.userBrokerId`).
//
// Each pass (`checkAccountRisk`, every second in a process running strategies):
// 1. For every account with a run in progress (or one that ended in the last two minutes), its day:
//    the market day its runs trade (their latest daily_pnl date: a replay's date, else today in
//    IST; a replay that has booked no day yet is skipped), the day P&L (the sum of daily_pnl of all its PAPER/LIVE runs on that day: realised +
//    marked unrealised - charges), open positions, investment on that day, broker session state.
//    Upserted into account_risk_days; the peak only rises, a reached target stays reached.
// 2. With settings on, the levels in force today (account-risk-settings.ts levelsOn) in paise
//    (PERCENT: of that day's investment; no investment, no percent levels), and the first rule hit:
//    stop (P&L <= -sl), trailing stop (the P&L was above 0 and fell trail_tsl below its peak),
//    target (P&L >= tgt, when not trailing it), trailing target (tgt reached, then trail_ttg below
//    the peak). The halt is written once (compare-and-set on halted_at), with an alert in words
//    (trading_alerts kind 'account-risk') and an audit row.
// 3. Every account halted today: each of its strategy runs in progress that is not stopping is
//    stopped with its square-off (deployments.ts stopStrategy, as /positions' square-off does), so
//    each run's own runner closes its positions at market through its kernel and OMS; a stop
//    already asked is never asked again, and the runner's stop path never doubles an order.
//    Positions the account holds through basket placements (a basket's or an ensemble sync's
//    run: no runner of their own) are closed through /positions' square-off path
//    (position-square-off.ts): paper at once, LIVE by the worker holding the account, asked only
//    while the run is not already back IN PROGRESS for it.
//    deployments.ts refuses deploys on the account for the rest of the IST day (account-risk-settings.ts haltedToday).
import { formatRupees, istDate, levelsOn } from '@vyuha/core';
import type { AccountRisk } from '@vyuha/core';
import type pg from 'pg';
import type { JobQueue } from '../jobs/job-queue';
import { stopStrategy } from './deployments';
import { squareOffPositions } from './position-square-off';
import { inTransaction } from './oms/order-rows';
import { raiseTradingAlert } from './trading-alerts';

export type HaltKind = 'STOP' | 'TARGET' | 'TRAILING_STOP' | 'TRAILING_TARGET';

/** An account's day as one pass saw it. */
export interface AccountDay {
  readonly userBrokerId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly tradingDay: string;
  readonly pnlPaise: number;
  readonly peakPnlPaise: number;
  readonly targetReached: boolean;
  readonly openPositions: number;
  readonly investmentPaise: number;
  readonly sessionState: 'NONE' | 'ACTIVE' | 'EXPIRED' | 'LOST';
  readonly halted: boolean;
}

/** What a pass did. */
export interface AccountRiskPass {
  readonly days: readonly AccountDay[];
  /** Accounts halted by this pass (not those halted before). */
  readonly halted: ReadonlyArray<{ readonly userBrokerId: string; readonly kind: HaltKind; readonly message: string }>;
  /** Strategies this pass stopped with their square-off. */
  readonly stopped: ReadonlyArray<{ readonly userBrokerId: string; readonly strategyId: string }>;
  /** Basket placements' positions this pass squared off (paper) or asked the account's worker to (LIVE). */
  readonly basketPositions: ReadonlyArray<{ readonly userBrokerId: string; readonly runId: string; readonly instrumentId: number }>;
  /** Stops refused (the strategy ended meanwhile, say), in words. */
  readonly problems: readonly string[];
}

interface FigureRow {
  readonly user_broker_id: string;
  readonly user_id: string;
  readonly client_id: string;
  readonly trading_day: string;
  readonly pnl_paise: number;
  readonly open_positions: number;
  readonly investment_paise: number;
  readonly session_state: AccountDay['sessionState'];
}

interface RiskRow extends AccountRisk { readonly user_broker_id: string }

/** The runs trading on each account: PAPER and LIVE runs naming it. */
const ACCOUNT_RUNS = `SELECT r.run_id, r.status, r.finished_at, r.params ->> 'userBrokerId' AS user_broker_id,
    coalesce(jsonb_typeof(r.params -> 'replay'), 'null') = 'object' AS replay
  FROM strategy_runs r WHERE r.kind IN ('PAPER', 'LIVE') AND r.params ? 'userBrokerId'`;

const FIGURES_SQL = `
  WITH account_runs AS (${ACCOUNT_RUNS}),
  watched AS (
    SELECT user_broker_id, array_agg(run_id) FILTER (WHERE status = 'IN PROGRESS' OR finished_at > now() - interval '2 minutes') AS recent,
           bool_or(replay) FILTER (WHERE status = 'IN PROGRESS' OR finished_at > now() - interval '2 minutes') AS replaying
      FROM account_runs GROUP BY user_broker_id
     HAVING bool_or(status = 'IN PROGRESS' OR finished_at > now() - interval '2 minutes')
  ),
  days AS (
    -- A replay that has booked nothing yet has no day; a run on the market's is today.
    SELECT w.user_broker_id, coalesce((SELECT max(d.date) FROM daily_pnl d WHERE d.run_id = ANY(w.recent)), CASE WHEN NOT w.replaying THEN $1::date END) AS trading_day
      FROM watched w
  )
  SELECT ub.user_broker_id, ub.user_id, ub.client_id, to_char(days.trading_day, 'YYYY-MM-DD') AS trading_day,
         coalesce((SELECT sum(d.pnl_paise) FROM daily_pnl d JOIN account_runs ar ON ar.run_id = d.run_id
                    WHERE ar.user_broker_id = ub.user_broker_id::text AND d.date = days.trading_day), 0)::float8 AS pnl_paise,
         (SELECT count(*) FROM positions p JOIN account_runs ar ON ar.run_id = p.run_id
           WHERE ar.user_broker_id = ub.user_broker_id::text AND p.net_quantity <> 0)::int AS open_positions,
         coalesce((SELECT (entry ->> 'amount_paise')::bigint FROM jsonb_array_elements(ub.investment_history) entry
                    WHERE entry ->> 'date' <= to_char(days.trading_day, 'YYYY-MM-DD') ORDER BY entry ->> 'date' DESC LIMIT 1),
                  ub.investment_amt_paise)::float8 AS investment_paise,
         CASE WHEN s.user_broker_id IS NULL THEN 'NONE' WHEN s.invalidated_at IS NOT NULL THEN 'LOST'
              WHEN s.expires_at <= now() THEN 'EXPIRED' ELSE 'ACTIVE' END AS session_state
    FROM days JOIN user_brokers ub ON ub.user_broker_id::text = days.user_broker_id AND days.trading_day IS NOT NULL
    LEFT JOIN broker_sessions s ON s.user_broker_id = ub.user_broker_id
   ORDER BY ub.user_broker_id`;

/** The rule an account's day hits, if any: its kind and the sentence of the alert. */
export function haltOf(risk: AccountRisk, day: Pick<AccountDay, 'pnlPaise' | 'peakPnlPaise' | 'targetReached' | 'investmentPaise' | 'clientId'>, today: string): { kind: HaltKind; message: string } | undefined {
  const levels = levelsOn(risk, today);
  const percent = risk.trail_mode === 'PERCENT';
  if (percent && day.investmentPaise <= 0) return undefined;
  const paise = (level: number): number => (percent ? Math.round((level * day.investmentPaise) / 10_000) : level);
  const account = day.clientId;
  const pnl = formatRupees(day.pnlPaise);
  const tail = 'positions squared off, no new entries on the account today';
  if (risk.enable_sl && day.pnlPaise <= -paise(levels.sl)) {
    return { kind: 'STOP', message: `Account stop-loss of ${formatRupees(paise(levels.sl))} hit on ${account} (day P&L ${pnl}): ${tail}` };
  }
  if (risk.trail_enabled && risk.trail_tsl > 0 && day.peakPnlPaise > 0 && day.pnlPaise <= day.peakPnlPaise - paise(risk.trail_tsl)) {
    return { kind: 'TRAILING_STOP', message: `Account trailing stop of ${formatRupees(paise(risk.trail_tsl))} below the day's peak of ${formatRupees(day.peakPnlPaise)} hit on ${account} (day P&L ${pnl}): ${tail}` };
  }
  const trailsTarget = risk.trail_enabled && risk.trail_ttg > 0;
  if (risk.enable_target && !trailsTarget && day.pnlPaise >= paise(levels.tgt)) {
    return { kind: 'TARGET', message: `Account target of ${formatRupees(paise(levels.tgt))} reached on ${account} (day P&L ${pnl}): ${tail}` };
  }
  if (risk.enable_target && trailsTarget && day.targetReached && day.pnlPaise <= day.peakPnlPaise - paise(risk.trail_ttg)) {
    return { kind: 'TRAILING_TARGET', message: `Account target of ${formatRupees(paise(levels.tgt))} reached, then the P&L fell ${formatRupees(paise(risk.trail_ttg))} below its peak of ${formatRupees(day.peakPnlPaise)} on ${account} (day P&L ${pnl}): ${tail}` };
  }
  return undefined;
}

/** True when the account's target level is reached by this P&L (for the trailing target). */
function targetReachedBy(risk: AccountRisk | undefined, day: { readonly pnlPaise: number; readonly investmentPaise: number; readonly today: string }): boolean {
  const { pnlPaise, investmentPaise, today } = day;
  if (risk === undefined || !risk.enable_target) return false;
  const level = levelsOn(risk, today).tgt;
  if (risk.trail_mode === 'PERCENT') return investmentPaise > 0 && pnlPaise >= Math.round((level * investmentPaise) / 10_000);
  return pnlPaise >= level;
}

/**
 * One pass of the watch over every account traded now (see the file's header).
 * @example const pass = await checkAccountRisk(pool); pass.halted // [{ userBrokerId, kind: 'STOP', message: 'Account stop-loss of ₹5,000.00 hit on ZX1234 ...' }]
 */
export async function checkAccountRisk(pool: pg.Pool, options: {
  readonly nowMs?: number;
  /** The strategy runners' queue: a LIVE basket's square-off is sent by the worker holding the account. */
  readonly queue?: JobQueue;
} = {}): Promise<AccountRiskPass> {
  const today = istDate(options.nowMs ?? Date.now());
  const { rows: figures } = await pool.query<FigureRow>(FIGURES_SQL, [today]);
  const ids = figures.map((row) => row.user_broker_id);
  const { rows: risks } = await pool.query<RiskRow>(
    `SELECT user_broker_id, enable_sl, sl::float8 AS sl, default_sl::float8 AS default_sl, trail_enabled, trail_mode, trail_tsl::float8 AS trail_tsl,
            enable_target, tgt::float8 AS tgt, default_tgt::float8 AS default_tgt, trail_ttg::float8 AS trail_ttg, to_char(levels_day, 'YYYY-MM-DD') AS levels_day
       FROM account_risk WHERE user_broker_id = ANY($1::uuid[]) AND (enable_sl OR enable_target OR trail_enabled)`, [ids]);
  const riskOf = new Map(risks.map((row) => [row.user_broker_id, row]));
  const days: AccountDay[] = [];
  const halted: Array<{ userBrokerId: string; kind: HaltKind; message: string }> = [];
  for (const row of figures) {
    const risk = riskOf.get(row.user_broker_id);
    const { rows: stored } = await pool.query<{ peak: number; target_reached: boolean; halted: boolean }>(
      `INSERT INTO account_risk_days (user_broker_id, trading_day, pnl_paise, peak_pnl_paise, target_reached, open_positions, investment_paise, session_state)
       VALUES ($1, $2, $3::bigint, greatest($3::bigint, 0), $4, $5, $6, $7)
       ON CONFLICT (user_broker_id, trading_day) DO UPDATE SET pnl_paise = EXCLUDED.pnl_paise,
         peak_pnl_paise = greatest(account_risk_days.peak_pnl_paise, EXCLUDED.peak_pnl_paise),
         target_reached = account_risk_days.target_reached OR EXCLUDED.target_reached,
         open_positions = EXCLUDED.open_positions, investment_paise = EXCLUDED.investment_paise, session_state = EXCLUDED.session_state,
         updated_at = now()
       RETURNING peak_pnl_paise::float8 AS peak, target_reached, halted_at IS NOT NULL AS halted`,
      [row.user_broker_id, row.trading_day, row.pnl_paise, targetReachedBy(risk, { pnlPaise: row.pnl_paise, investmentPaise: row.investment_paise, today }),
        row.open_positions, row.investment_paise, row.session_state]);
    const state = stored[0] as { peak: number; target_reached: boolean; halted: boolean };
    const day: AccountDay = {
      userBrokerId: row.user_broker_id, userId: row.user_id, clientId: row.client_id, tradingDay: row.trading_day, pnlPaise: row.pnl_paise,
      peakPnlPaise: state.peak, targetReached: state.target_reached, openPositions: row.open_positions, investmentPaise: row.investment_paise,
      sessionState: row.session_state, halted: state.halted,
    };
    const hit = risk === undefined || state.halted ? undefined : haltOf(risk, day, today);
    if (hit !== undefined && await haltOnce(pool, day, hit)) {
      halted.push({ userBrokerId: row.user_broker_id, ...hit });
      days.push({ ...day, halted: true });
    } else {
      days.push(day);
    }
  }
  const { stopped, problems } = await stopHaltedAccounts(pool, today);
  const baskets = await squareOffHaltedBaskets(pool, {
    today, ...(options.queue === undefined ? {} : { queue: options.queue }), ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
  });
  return { days, halted, stopped, basketPositions: baskets.squared, problems: [...problems, ...baskets.problems] };
}

/** Writes the halt if no other pass did (compare-and-set), with its alert and audit row; true when this call wrote it. */
async function haltOnce(pool: pg.Pool, day: AccountDay, hit: { kind: HaltKind; message: string }): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE account_risk_days SET halted_at = now(), halt_kind = $3, halt_message = $4
        WHERE user_broker_id = $1 AND trading_day = $2 AND halted_at IS NULL`, [day.userBrokerId, day.tradingDay, hit.kind, hit.message]);
    if (rowCount !== 1) return false;
    await raiseTradingAlert(client, { userId: day.userId, userBrokerId: day.userBrokerId, kind: 'account-risk', message: hit.message });
    await client.query(
      `INSERT INTO audit_log (actor_user_id, action, entity, entity_id, after) VALUES (NULL, 'account_risk.halted', 'account_risk_days', $1, $2)`,
      [day.userBrokerId, JSON.stringify({ trading_day: day.tradingDay, kind: hit.kind, pnl_paise: day.pnlPaise, peak_pnl_paise: day.peakPnlPaise, message: hit.message })]);
    return true;
  });
}

/** Stops, with their square-off, the strategy runs in progress (not yet stopping) on accounts halted today. */
async function stopHaltedAccounts(pool: pg.Pool, today: string): Promise<{ stopped: Array<{ userBrokerId: string; strategyId: string }>; problems: string[] }> {
  const { rows } = await pool.query<{ user_broker_id: string; user_id: string; strategy_id: string }>(
    `SELECT DISTINCT ar.user_broker_id, r.user_id, r.strategy_id
       FROM account_risk_days h JOIN (${ACCOUNT_RUNS}) ar ON ar.user_broker_id = h.user_broker_id::text
       JOIN strategy_runs r ON r.run_id = ar.run_id
      WHERE h.halted_at IS NOT NULL AND (h.halted_at AT TIME ZONE 'Asia/Kolkata')::date = $1::date
        AND r.status = 'IN PROGRESS' AND r.stop_requested_at IS NULL AND r.strategy_id IS NOT NULL AND NOT r.params ? 'basket' AND NOT r.params ? 'follows'`, [today]);
  const stopped: Array<{ userBrokerId: string; strategyId: string }> = [];
  const problems: string[] = [];
  for (const row of rows) {
    // The system acts on the owner's behalf: the audit row of the stop names the owner, the halt's names nobody.
    const result = await stopStrategy(pool, { actorId: row.user_id, userId: row.user_id, strategyId: row.strategy_id, squareOff: true });
    if (result.ok) stopped.push({ userBrokerId: row.user_broker_id, strategyId: row.strategy_id });
    else problems.push(`strategy ${row.strategy_id} on account ${row.user_broker_id}: ${result.error.map((issue) => issue.message).join('; ')}`);
  }
  return { stopped, problems };
}

/**
 * Closes the open positions of basket placements (a basket's or an ensemble sync's run) on accounts
 * halted today, through /positions' square-off path; a LIVE run already back IN PROGRESS for its
 * square-off is left to its worker.
 */
async function squareOffHaltedBaskets(pool: pg.Pool, request: { readonly today: string; readonly queue?: JobQueue; readonly nowMs?: number }): Promise<{
  squared: Array<{ userBrokerId: string; runId: string; instrumentId: number }>; problems: string[];
}> {
  const { rows } = await pool.query<{ user_broker_id: string; user_id: string; run_id: string; instrument_id: number }>(
    `SELECT ar.user_broker_id, r.user_id, r.run_id, p.instrument_id
       FROM account_risk_days h JOIN (${ACCOUNT_RUNS}) ar ON ar.user_broker_id = h.user_broker_id::text
       JOIN strategy_runs r ON r.run_id = ar.run_id JOIN positions p ON p.run_id = r.run_id
      WHERE h.halted_at IS NOT NULL AND (h.halted_at AT TIME ZONE 'Asia/Kolkata')::date = $1::date
        AND r.params ? 'basket' AND r.status <> 'IN PROGRESS' AND p.net_quantity <> 0
      ORDER BY r.run_id, p.instrument_id`, [request.today]);
  const squared: Array<{ userBrokerId: string; runId: string; instrumentId: number }> = [];
  const problems: string[] = [];
  const byRun = new Map<string, typeof rows>();
  for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row]);
  for (const [runId, positions] of byRun) {
    const first = positions[0] as (typeof rows)[number];
    // The system acts on the owner's behalf, as for the strategies' stops.
    const result = await squareOffPositions(pool, {
      actorId: first.user_id, userId: first.user_id, positions: positions.map((position) => ({ runId, instrumentId: position.instrument_id })),
    }, { ...(request.queue === undefined ? {} : { queue: request.queue }), ...(request.nowMs === undefined ? {} : { now: () => request.nowMs as number }) });
    if (result.ok) squared.push(...positions.map((position) => ({ userBrokerId: position.user_broker_id, runId, instrumentId: position.instrument_id })));
    else problems.push(`basket run ${runId} on account ${first.user_broker_id}: ${result.error.map((issue) => issue.message).join('; ')}`);
  }
  return { squared, problems };
}

/** The watch: a pass every `intervalMs` (a pass never overlaps the previous one); `stop` waits for the pass under way. */
export function startAccountRiskWatch(pool: pg.Pool, options: {
  readonly intervalMs?: number;
  readonly log?: (message: string) => void;
  /** The strategy runners' queue (LIVE baskets' square-offs). */
  readonly queue?: JobQueue;
} = {}): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running !== undefined) return;
    running = checkAccountRisk(pool, options.queue === undefined ? {} : { queue: options.queue })
      .then((pass) => {
        for (const halt of pass.halted) options.log?.(`account risk: ${halt.message}`);
        for (const problem of pass.problems) options.log?.(`account risk: could not stop ${problem}`);
      })
      .catch((error: unknown) => options.log?.(`account risk: pass failed: ${String(error)}`))
      .finally(() => { running = undefined; });
  }, options.intervalMs ?? 1_000);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

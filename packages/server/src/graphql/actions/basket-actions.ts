// The basket actions (../../trading/baskets/): save_basket, preview_basket, place_basket and
// choose_basket_outcome. The handlers read the session and the arguments; the rules about legs,
// prices, placement and the choice are the runtime's.
//
// - Whose basket: the session's user (a managed user when a manager acts for one); another
//   user's basket is "no basket of yours", the same answer as one that does not exist.
// - A refusal changes nothing and answers one error: every issue's sentence in the message, the
//   first issue's field as the path (`...args.legs[1].lots`), the list in `extensions.issues`.
// - LIVE (mode LIVE with user_broker_id, checked as deploy_strategy checks LIVE): an account's
//   orders go through the one OMS the strategy worker holds for it (packages/server/src/trading/README.md,
//   "one OMS per account"), so the action writes the run with its job and waits a while for a
//   runner to place it (trading/baskets/live-basket.ts); not ended by then, it answers the run
//   `pending` with the legs so far, and the screen follows the run row. A LIVE run's square-off
//   choice goes the same way.
import type pg from 'pg';
import { BasketRefusal } from '../../trading/baskets/basket-legs';
import type { BasketIssue } from '../../trading/baskets/basket-legs';
import { parseBasket } from '../../trading/baskets/basket-legs';
import { chooseBasketOutcome, placeBasket } from '../../trading/baskets/basket-placement';
import { chooseLiveBasketOutcome, placeLiveBasket } from '../../trading/baskets/live-basket';
import type { JobQueue } from '../../jobs/job-queue';
import type { BasketResult, LegOutcome } from '../../trading/baskets/basket-placement';
import { previewBasket } from '../../trading/baskets/basket-preview';
import { quoteBasket } from '../../trading/baskets/basket-quotes';
import { saveBasket } from '../../trading/baskets/basket-store';
import type { ActionDeclaration, ActionInvocation } from '../metadata/types';
import { IssuesFailure } from '../types';
import { DEPLOY_ROLES } from './strategy-actions';
import { isUuid, requireRole, targetUserId } from './session-access';

export const SAVE_BASKET = 'save_basket';
export const PREVIEW_BASKET = 'preview_basket';
export const PLACE_BASKET = 'place_basket';
export const CHOOSE_BASKET_OUTCOME = 'choose_basket_outcome';

/** Who may keep and place baskets: the tiers that build strategies (every one of them on PAPER). */
export const BASKET_ROLES: readonly string[] = DEPLOY_ROLES;

/** Why LIVE baskets are refused on a server without the strategy workers' job queue, as the screen shows it. */
export const LIVE_BASKET_UNAVAILABLE = 'LIVE baskets are not available on this server: a broker account\'s orders go through the one OMS its strategy worker holds, '
  + 'and no worker queue is configured. Place the basket on PAPER.';

/** What the margin figure is, in words (basket-preview.ts). */
export const MARGIN_BASIS = 'Estimated margin (not the exchange\'s SPAN): bought options need their premium; a sold option is valued after a 7% '
  + 'adverse move of its index plus 2% exposure (a hedged spread at most its width); futures 9% of their value; equities in full. '
  + 'Paper risk checks do not test margin.';

export const BASKET_TYPES = `
input basket_leg_input {
  """A trading symbol: an equity, or an index future or option (NIFTY26JANFUT, NIFTY26JAN24000CE)."""
  symbol: String!
  """BUY or SELL."""
  side: String!
  """Lots of a future or an option (times the lot size on the trade date)."""
  lots: Int
  """Units of an equity."""
  quantity: Int
  """MARKET, LIMIT, SL or SL-M."""
  order_type: String!
  price_paise: Float
  trigger_price_paise: Float
}

type save_basket_result {
  strategy_id: uuid!
}

type basket_leg_preview {
  index: Int!
  symbol: String!
  """equity, future or option."""
  kind: String!
  side: String!
  lot_size: Int!
  quantity: Int!
  """The price a paper fill takes now, paise."""
  price_paise: Float!
  """last price, futures model or synthetic option chain."""
  price_source: String!
  implied_volatility: Float
  value_paise: Float!
  """The engine's charges of the fill at that price."""
  charges_paise: Float!
  expiry: String
  strike: Float
  option_type: String
  underlying: String
  underlying_price_paise: Float
}

type basket_preview {
  trade_date: String!
  charges_paise: Float!
  """The engine's margin estimate of the legs (margin_basis says what it counts)."""
  margin_paise: Float!
  margin_basis: String!
  legs: [basket_leg_preview!]!
}

type basket_leg_outcome {
  index: Int!
  symbol: String!
  side: String!
  quantity: Int!
  """FILLED, REFUSED (a risk check), REJECTED (the venue), NOT_FILLED (cancelled), NOT_SENT, or PENDING (a LIVE leg the broker has not ended yet)."""
  status: String!
  message: String
  average_price_paise: Float
  charges_paise: Float!
}

type basket_placement {
  run_id: uuid!
  complete: Boolean!
  """Some legs filled and a later one did not: call choose_basket_outcome."""
  needs_choice: Boolean!
  """keep or square-off, once chosen."""
  choice: String
  legs: [basket_leg_outcome!]!
  square_off: [basket_leg_outcome!]!
  """A LIVE run still placing (or squaring off) when the answer was due: PENDING legs follow on the run row."""
  pending: Boolean!
}
`;

/** A refusal carrying every issue in its extensions. */
export class BasketActionRefusal extends IssuesFailure<BasketIssue> {
  constructor(action: string, issues: readonly BasketIssue[]) {
    const first = issues[0];
    super('validation-failed', issues, `$.selectionSet.${action}${first === undefined ? '' : `.args.${first.field}`}`);
  }
}

async function refusing<T>(action: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BasketRefusal) throw new BasketActionRefusal(action, error.issues);
    throw error;
  }
}

function uuidArgument(action: string, value: unknown, name: string): string {
  if (!isUuid(value)) throw new BasketActionRefusal(action, [{ field: name, code: 'invalid', message: `${name} must be a uuid, got ${JSON.stringify(value)}` }]);
  return value;
}

function outcomeOut(outcome: LegOutcome): Record<string, unknown> {
  return {
    index: outcome.index, symbol: outcome.symbol, side: outcome.side, quantity: outcome.quantity, status: outcome.status, message: outcome.message,
    average_price_paise: outcome.averagePricePaise, charges_paise: outcome.chargesPaise,
  };
}

function placementOut(runId: string, result: BasketResult, pending = false): Record<string, unknown> {
  return {
    run_id: runId, complete: result.complete, needs_choice: result.needsChoice && result.choice === null, choice: result.choice,
    legs: result.legs.map(outcomeOut), square_off: result.squareOff.map(outcomeOut), pending,
  };
}

export interface BasketActionsOptions {
  readonly pool: pg.Pool;
  /** The clock (default Date.now): prices and fills are taken now. */
  readonly now?: () => number;
  /** The strategy runners' job queue: LIVE baskets are placed by a runner; without it LIVE is refused. */
  readonly queue?: JobQueue;
  /** The platform's algo id for LIVE baskets without their own (VYUHA_ALGO_ID). */
  readonly defaultAlgoId?: string;
  /** How long a LIVE placement or square-off is waited for before it is answered pending (default 20 s). */
  readonly answerWaitMs?: number;
}

/** The LIVE side's context, or the refusal of a server without the runners' queue. */
function liveContext(options: BasketActionsOptions, action: string): Parameters<typeof placeLiveBasket>[0] {
  const { queue } = options;
  if (queue === undefined) throw new BasketActionRefusal(action, [{ field: 'mode', code: 'live-unavailable', message: LIVE_BASKET_UNAVAILABLE }]);
  return {
    pool: options.pool, queue, ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.defaultAlgoId === undefined ? {} : { defaultAlgoId: options.defaultAlgoId }),
    ...(options.answerWaitMs === undefined ? {} : { answerWaitMs: options.answerWaitMs }),
  };
}

async function previewHandler(options: BasketActionsOptions, invocation: ActionInvocation): Promise<Record<string, unknown>> {
  requireRole(invocation.session, BASKET_ROLES, PREVIEW_BASKET);
  return refusing(PREVIEW_BASKET, async () => {
    const parsed = parseBasket({ product: invocation.args.product, legs: invocation.args.legs });
    if (!parsed.ok) throw new BasketRefusal(parsed.error);
    const nowMs = (options.now ?? Date.now)();
    const quoted = await quoteBasket(options.pool, parsed.value, nowMs);
    if (quoted.issues.length > 0) throw new BasketRefusal(quoted.issues);
    const preview = previewBasket(quoted.legs, nowMs);
    return {
      trade_date: preview.tradeDate, charges_paise: preview.chargesPaise, margin_paise: preview.marginPaise, margin_basis: MARGIN_BASIS,
      legs: preview.legs.map((leg) => ({
        index: leg.index, symbol: leg.symbol, kind: leg.kind, side: leg.side, lot_size: leg.lotSize, quantity: leg.quantity, price_paise: leg.pricePaise,
        price_source: leg.priceSource, implied_volatility: leg.impliedVolatility, value_paise: leg.valuePaise, charges_paise: leg.chargesPaise,
        expiry: leg.expiry, strike: leg.strike, option_type: leg.optionType, underlying: leg.underlying, underlying_price_paise: leg.underlyingPricePaise,
      })),
    };
  });
}

/**
 * The basket action declarations for the metadata (appended to tradingActions).
 * @example basketActions({ pool }).map((action) => action.name) // ['save_basket', 'preview_basket', 'place_basket', 'choose_basket_outcome']
 */
export function basketActions(options: BasketActionsOptions): ActionDeclaration[] {
  const { pool } = options;
  const now = options.now ?? Date.now;
  return [
    {
      name: SAVE_BASKET,
      kind: 'mutation',
      field: `${SAVE_BASKET}(strategy_id: uuid, name: String!, product: String, legs: [basket_leg_input!]!): save_basket_result!`,
      types: BASKET_TYPES,
      description: 'Saves a basket of legs (a new one, or the basket strategy_id of the account): every leg must name a tradable instrument with a price now.',
      roles: BASKET_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, BASKET_ROLES, SAVE_BASKET);
        const strategyId = args.strategy_id === undefined || args.strategy_id === null ? undefined : uuidArgument(SAVE_BASKET, args.strategy_id, 'strategy_id');
        const saved = await refusing(SAVE_BASKET, () => saveBasket(pool, {
          userId: targetUserId(session), name: args.name, product: args.product, legs: args.legs, nowMs: now(), ...(strategyId === undefined ? {} : { strategyId }),
        }));
        return { strategy_id: saved.strategyId };
      },
    },
    {
      name: PREVIEW_BASKET,
      kind: 'query',
      field: `${PREVIEW_BASKET}(product: String, legs: [basket_leg_input!]!): basket_preview!`,
      types: '',
      description: "What placing these legs now would cost: each leg's price (as a paper fill takes it) and charges (the engine's model), and the margin estimate.",
      roles: BASKET_ROLES,
      handler: (invocation) => previewHandler({ pool, now }, invocation),
    },
    {
      name: PLACE_BASKET,
      kind: 'mutation',
      field: `${PLACE_BASKET}(strategy_id: uuid!, mode: String!, user_broker_id: uuid): basket_placement!`,
      types: '',
      description: 'Places a saved basket, all or nothing: a new run, legs sent in order until one does not fill; the legs after it are not sent. '
        + 'PAPER at once; LIVE through user_broker_id (your Zerodha account), placed by the strategy worker holding it (pending if not done within 20 s).',
      roles: BASKET_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, BASKET_ROLES, PLACE_BASKET);
        const strategyId = uuidArgument(PLACE_BASKET, args.strategy_id, 'strategy_id');
        if (args.mode === 'LIVE') {
          const context = liveContext(options, PLACE_BASKET);
          const account = args.user_broker_id === undefined || args.user_broker_id === null ? null : uuidArgument(PLACE_BASKET, args.user_broker_id, 'user_broker_id');
          const placed = await refusing(PLACE_BASKET, () => placeLiveBasket(context, { userId: targetUserId(session), strategyId, userBrokerId: account }));
          return placementOut(placed.runId, placed.result, placed.pending);
        }
        if (args.mode !== 'PAPER') throw new BasketActionRefusal(PLACE_BASKET, [{ field: 'mode', code: 'invalid', message: `mode must be PAPER or LIVE, got ${JSON.stringify(args.mode)}` }]);
        const placed = await refusing(PLACE_BASKET, () => placeBasket({ pool, now }, { userId: targetUserId(session), strategyId }));
        return placementOut(placed.runId, placed.result);
      },
    },
    {
      name: CHOOSE_BASKET_OUTCOME,
      kind: 'mutation',
      field: `${CHOOSE_BASKET_OUTCOME}(run_id: uuid!, choice: String!): basket_placement!`,
      types: '',
      description: 'After a basket stopped with some legs filled: keep them, or square them off at market (choice keep or square-off); recorded once. '
        + "A LIVE basket's square-off is sent by the strategy worker holding its account (pending if not done within 20 s).",
      roles: BASKET_ROLES,
      handler: async ({ session, args }) => {
        requireRole(session, BASKET_ROLES, CHOOSE_BASKET_OUTCOME);
        const runId = uuidArgument(CHOOSE_BASKET_OUTCOME, args.run_id, 'run_id');
        const choice = args.choice;
        if (choice !== 'keep' && choice !== 'square-off') {
          throw new BasketActionRefusal(CHOOSE_BASKET_OUTCOME, [{ field: 'choice', code: 'invalid', message: `choice must be keep or square-off, got ${JSON.stringify(choice)}` }]);
        }
        const userId = targetUserId(session);
        const { rows } = await pool.query<{ kind: string }>('SELECT kind FROM strategy_runs WHERE run_id = $1 AND user_id = $2', [runId, userId]);
        if (rows[0]?.kind === 'LIVE') {
          const context = liveContext(options, CHOOSE_BASKET_OUTCOME);
          const chosen = await refusing(CHOOSE_BASKET_OUTCOME, () => chooseLiveBasketOutcome(context, { userId, runId, choice }));
          return placementOut(runId, chosen.result, chosen.pending);
        }
        const result = await refusing(CHOOSE_BASKET_OUTCOME, () => chooseBasketOutcome({ pool, now }, { userId, runId, choice }));
        return placementOut(runId, result);
      },
    },
  ];
}

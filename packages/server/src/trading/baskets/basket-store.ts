// Saved baskets: strategies rows of kind 'basket' (migration 0004) whose config holds the legs
// (`config.basket`, basket-legs.ts). A basket is never deployed: it stays DRAFT, PAPER, and each
// placement is a run of its own (basket-placement.ts). Deleting one is the strategies table's
// own permission (its runs keep their orders: strategy_runs.strategy_id becomes NULL).
import type pg from 'pg';
import { BasketRefusal, basketOfConfig, parseBasket } from './basket-legs';
import type { BasketDocument, BasketIssue } from './basket-legs';
import { quoteBasket } from './basket-quotes';

/** Longest basket name kept. */
export const MAX_BASKET_NAME = 80;

/** The user's basket and its legs; BasketRefusal (field `strategy_id`) when it is not one. */
export async function readOwnBasket(db: pg.Pool, request: { readonly userId: string; readonly strategyId: string }): Promise<{ name: string; document: BasketDocument }> {
  const { rows } = await db.query<{ name: string; config: unknown }>(
    `SELECT name, config FROM strategies WHERE strategy_id = $1 AND user_id = $2 AND kind = 'basket'`, [request.strategyId, request.userId]);
  const row = rows[0];
  if (row === undefined) throw new BasketRefusal([{ field: 'strategy_id', code: 'not-found', message: `no basket ${request.strategyId} of yours` }]);
  const document = basketOfConfig(row.config);
  if (document === undefined) throw new BasketRefusal([{ field: 'strategy_id', code: 'invalid-config', message: `basket "${row.name}" holds no legs this version can read: edit and save it again` }]);
  return { name: row.name, document };
}

/**
 * Checks and saves a basket (a new one without `strategyId`): the name, every leg's fields, and
 * that each leg names a tradable instrument with a price now. Throws BasketRefusal with every
 * issue and writes nothing when any is wrong.
 * @example await saveBasket(pool, { userId, name: 'Straddle', product: 'MIS', legs, nowMs }) // { strategyId }
 */
export async function saveBasket(db: pg.Pool, request: {
  readonly userId: string; readonly strategyId?: string; readonly name: unknown; readonly product: unknown; readonly legs: unknown; readonly nowMs: number;
}): Promise<{ strategyId: string }> {
  const issues: BasketIssue[] = [];
  const name = typeof request.name === 'string' ? request.name.trim() : '';
  if (name === '' || name.length > MAX_BASKET_NAME) issues.push({ field: 'name', code: 'invalid', message: `name the basket (1 to ${MAX_BASKET_NAME} characters)` });
  const parsed = parseBasket({ product: request.product, legs: request.legs });
  if (!parsed.ok) throw new BasketRefusal([...issues, ...parsed.error]);
  issues.push(...(await quoteBasket(db, parsed.value, request.nowMs)).issues);
  if (request.strategyId !== undefined) await readOwnBasketRow(db, { userId: request.userId, strategyId: request.strategyId });
  if (issues.length > 0) throw new BasketRefusal(issues);
  const config = JSON.stringify({ basket: parsed.value });
  if (request.strategyId === undefined) {
    const { rows } = await db.query<{ strategy_id: string }>(
      `INSERT INTO strategies (user_id, name, kind, status, mode, config) VALUES ($1, $2, 'basket', 'DRAFT', 'PAPER', $3) RETURNING strategy_id`,
      [request.userId, name, config]);
    return { strategyId: rows[0]!.strategy_id };
  }
  await db.query(`UPDATE strategies SET name = $3, config = $4 WHERE strategy_id = $1 AND user_id = $2 AND kind = 'basket'`,
    [request.strategyId, request.userId, name, config]);
  return { strategyId: request.strategyId };
}

/** The row exists and is the user's basket (its legs may be unreadable: saving replaces them). */
async function readOwnBasketRow(db: pg.Pool, request: { readonly userId: string; readonly strategyId: string }): Promise<void> {
  const { rowCount } = await db.query(`SELECT 1 FROM strategies WHERE strategy_id = $1 AND user_id = $2 AND kind = 'basket'`, [request.strategyId, request.userId]);
  if (rowCount === 0) throw new BasketRefusal([{ field: 'strategy_id', code: 'not-found', message: `no basket ${request.strategyId} of yours` }]);
}

// The demo world's example algorithms: four published rule graphs (an EMA crossover, an RSI
// reversal, a 09:20 short straddle, a SuperTrend swing) owned by the demo administrator, so every
// user who opens /algo or the backtest form finds something real to read, copy and run. They are
// ordinary engine documents (algorithm/document.ts) stored as version 1 under fixed ids, so seeding
// again inserts nothing and never touches an example its owner has since edited.
import { ALGORITHM_FORMAT, ALGORITHM_VERSION } from '@vyuha/engine';
import type { AlgorithmDocument, AlgorithmEdge, AlgorithmNode } from '@vyuha/engine';
import type pg from 'pg';
import { demoUuid } from './demo-ids';
import { execute } from './execute';
import type { DemoRole, DemoUserIds } from './demo-users';

/** Who owns the examples: the administrator looks after the demo world's shared content. */
export const EXAMPLE_AUTHOR: DemoRole = 'administrator';

export type ExampleKey = 'ema-crossover' | 'rsi-reversal' | 'short-straddle' | 'supertrend-swing';

export interface ExampleAlgorithm {
  readonly key: ExampleKey;
  readonly name: string;
  readonly description: string;
  /** The index it is written for (instruments.name); the backtest form still lets any be chosen. */
  readonly instrument: string;
  readonly graph: AlgorithmDocument;
}

/**
 * The straddle's trade instruments config (engine options-legs/config.ts): a buy signal sells one
 * lot each of the ATM call and put of the current weekly NIFTY expiry, each leg with its own 30%
 * stop on its entry premium; the kernel's intraday square-off (15:15) closes what is left.
 */
export const SHORT_STRADDLE_LEGS = {
  underlying: 'NIFTY',
  onBuy: [
    { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 } },
    { option: 'PE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 30 } },
  ],
  maxEntriesPerDay: 1,
} as const;

interface Rule {
  readonly label: string;
  readonly expression: string;
}

/** Entry rule -> Buy and (optionally) a second rule -> Sell, laid out left to right for the editor. */
export function buySellGraph(rules: { buy: Rule; sell?: Rule }): AlgorithmDocument {
  const nodes: AlgorithmNode[] = [
    { id: 'buy-rule', type: 'condition', position: { x: 0, y: 0 }, label: rules.buy.label, expression: rules.buy.expression },
    { id: 'buy', type: 'buy', position: { x: 420, y: 0 } },
  ];
  const edges: AlgorithmEdge[] = [{ id: 'buy-rule-buy', source: 'buy-rule', target: 'buy' }];
  if (rules.sell !== undefined) {
    nodes.push(
      { id: 'sell-rule', type: 'condition', position: { x: 0, y: 160 }, label: rules.sell.label, expression: rules.sell.expression },
      { id: 'sell', type: 'sell', position: { x: 420, y: 160 } },
    );
    edges.push({ id: 'sell-rule-sell', source: 'sell-rule', target: 'sell' });
  }
  return { format: ALGORITHM_FORMAT, version: ALGORITHM_VERSION, nodes, edges };
}

/**
 * The four examples. Buy and Sell (rather than an Exit node) make each a stop-and-reverse when
 * backtested long-short; the server's backtests run long-only, where Sell closes the long.
 */
export const EXAMPLE_ALGORITHMS: readonly ExampleAlgorithm[] = [
  {
    key: 'ema-crossover',
    name: 'EMA crossover 9/21 (NIFTY 50)',
    description: 'Buys when the 9-bar EMA crosses above the 21-bar EMA and sells when it crosses back below. '
      + 'A trend follower for NIFTY 50 on 5 to 60-minute bars.',
    instrument: 'NIFTY 50',
    graph: buySellGraph({
      buy: { label: 'EMA 9 crosses above EMA 21', expression: 'crossover(ema(close, 9), ema(close, 21))' },
      sell: { label: 'EMA 9 crosses below EMA 21', expression: 'crossunder(ema(close, 9), ema(close, 21))' },
    }),
  },
  {
    key: 'rsi-reversal',
    name: 'RSI 14 reversal',
    description: 'Buys when RSI 14 climbs back above 30 (leaving oversold) and sells when it falls back below 70 '
      + '(leaving overbought). A mean-reversion idea for range-bound days.',
    instrument: 'NIFTY 50',
    graph: buySellGraph({
      buy: { label: 'RSI 14 back above 30', expression: 'crossover(rsi(close, 14), 30)' },
      sell: { label: 'RSI 14 back below 70', expression: 'crossunder(rsi(close, 14), 70)' },
    }),
  },
  {
    key: 'short-straddle',
    name: '09:20 short straddle (NIFTY)',
    description: 'Enters once a day at 09:20. Backtest it intraday on NIFTY 50 with option legs: sell 1 lot each of the '
      + 'ATM CE and ATM PE of the current weekly expiry, a 30% stop loss on each leg\'s premium, one entry a day; '
      + 'whatever is open is squared off at 15:15.',
    instrument: 'NIFTY 50',
    graph: buySellGraph({ buy: { label: 'At 09:20', expression: 'time() >= "09:20"' } }),
  },
  {
    key: 'supertrend-swing',
    name: 'SuperTrend 10,3 swing (NIFTY BANK)',
    description: 'Buys when SuperTrend (10, 3) flips up and sells when it flips down, holding across days. '
      + 'A swing trend follower for NIFTY BANK on 15 to 60-minute bars.',
    instrument: 'NIFTY BANK',
    graph: buySellGraph({
      buy: { label: 'SuperTrend flips up', expression: 'crossover(supertrend_direction(10, 3), 0)' },
      sell: { label: 'SuperTrend flips down', expression: 'crossunder(supertrend_direction(10, 3), 0)' },
    }),
  },
];

/** The fixed id of an example algorithm. */
export function exampleAlgorithmId(key: ExampleKey): string {
  return demoUuid(`algorithm:${key}`);
}

/**
 * Inserts the examples (published, version 1) for the example author. A name the author already
 * uses for an algorithm of their own wins: that example is skipped rather than renamed.
 * Returns how many examples exist under their fixed ids and the rows inserted now.
 */
export async function seedExampleAlgorithms(client: pg.PoolClient, ids: DemoUserIds): Promise<{ count: number; inserted: number }> {
  const authorId = ids.get(EXAMPLE_AUTHOR);
  if (authorId === undefined) throw new Error(`demo user ${EXAMPLE_AUTHOR} is missing`);
  let inserted = 0;
  for (const example of EXAMPLE_ALGORITHMS) {
    const algorithmId = exampleAlgorithmId(example.key);
    inserted += await execute(client,
      `INSERT INTO algorithms (algorithm_id, user_id, name, description, published, latest_version)
       VALUES ($1, $2, $3, $4, true, 1) ON CONFLICT DO NOTHING`,
      [algorithmId, authorId, example.name, example.description]);
    // Only under our own id: an algorithm that already had the name is the author's, not ours.
    inserted += await execute(client,
      `INSERT INTO algorithm_versions (algorithm_id, version, graph, schema_version, created_by)
       SELECT $1, 1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM algorithms WHERE algorithm_id = $1)
       ON CONFLICT (algorithm_id, version) DO NOTHING`,
      [algorithmId, JSON.stringify(example.graph), ALGORITHM_VERSION, authorId]);
  }
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM algorithms WHERE algorithm_id = ANY($1::uuid[])',
    [EXAMPLE_ALGORITHMS.map((example) => exampleAlgorithmId(example.key))]);
  return { count: rows[0]?.n ?? 0, inserted };
}

import { paise } from '@vyuha/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateBacktestConfig } from '../backtest/config';
import type { BacktestConfigInput } from '../backtest/config';
import { parseBacktestRequest } from '../backtest-request/backtest-request';
import type { BacktestRequest } from '../backtest-request/backtest-request';
import { expandBacktestRequest } from '../backtest-request/expand-request';
import { dailyLimitsOf, parseOptionsLegsConfig } from '../options-legs/config';
import { backtestConfigOf, parseDeployableConfig, serializeDeployableConfig } from './deployable-config';
import type { DeployableConfig } from './deployable-config';
import { deployableFromBacktest } from './from-backtest';

const BASE = { algorithm: { id: 'a1', version: 3 }, instrument: 'RELIANCE', interval: 15, type: 'swing', investment: 10_000_000 };
const LEG = { option: 'CE', side: 'sell', strike: { by: 'atm-offset', steps: 0 }, expiry: 'current-weekly', lots: 1, stopLoss: { percent: 25 } };
const LEGS = { underlying: 'NIFTY', onBuy: [LEG, { ...LEG, option: 'PE' }], dailyMaxLossRupees: 5_000 };

function valueOf(input: unknown): DeployableConfig {
  const parsed = parseDeployableConfig(input);
  if (!parsed.ok) throw new Error(`expected ok, got ${JSON.stringify(parsed.error)}`);
  return parsed.value;
}

function fieldsOf(input: unknown): string[] {
  const parsed = parseDeployableConfig(input);
  return parsed.ok ? [] : parsed.error.map((issue) => issue.field);
}

function requestOf(input: Record<string, unknown>): BacktestRequest {
  const parsed = parseBacktestRequest({ instrument: 'NIFTY 50', dateRanges: [{ from: '2024-01-01', to: '2024-03-31' }], ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

describe('parseDeployableConfig', () => {
  it('accepts an algorithm on an instrument and fills all-in sizing and automatic mode', () => {
    expect(valueOf(BASE)).toEqual({ ...BASE, legs: null, sizing: { kind: 'all-in' }, manual: false });
  });

  it('accepts quantity and lots sizing, exits and daily limits, and MANUAL mode', () => {
    const config = valueOf({
      ...BASE, type: 'intraday', sizing: { kind: 'lots', lots: 2, lotSize: 250 }, stopLoss: { kind: 'percent', percent: 1 }, target: { kind: 'points', points: 40 },
      trailingStop: { kind: 'percent', percent: 0.5 }, dailyMaxLoss: 500_000, dailyMaxProfit: 1_000_000, manual: true,
    });
    expect(config.sizing).toEqual({ kind: 'lots', lots: 2, lotSize: 250 });
    expect(config.manual).toBe(true);
    expect(valueOf({ ...BASE, sizing: { kind: 'quantity', quantity: 10 } }).sizing).toEqual({ kind: 'quantity', quantity: 10 });
  });

  it('accepts option legs, taking the day limits from the legs', () => {
    const config = valueOf({ ...BASE, instrument: 'NIFTY 50', type: 'intraday', legs: LEGS });
    expect(config.legs).toEqual(parseOptionsLegsConfig(LEGS));
    expect(config.dailyMaxLoss).toBe(500_000);
    expect(valueOf({ ...BASE, legs: LEGS, dailyMaxLoss: 500_000 }).dailyMaxLoss).toBe(500_000);
  });

  it('names each bad field', () => {
    expect(fieldsOf('x')).toEqual(['config']);
    expect(fieldsOf({ ...BASE, algorithm: { id: '', version: 0 } })).toEqual(['algorithm.id', 'algorithm.version']);
    expect(fieldsOf({ ...BASE, algorithm: 'a1' })).toEqual(['algorithm']);
    expect(fieldsOf({ ...BASE, interval: 4 })).toEqual(['interval']);
    expect(fieldsOf({ ...BASE, type: 'weekly' })).toEqual(['type']);
    expect(fieldsOf({ ...BASE, investment: 0 })).toEqual(['investment']);
    expect(fieldsOf({ ...BASE, investment: 1.5 })).toEqual(['investment']);
    expect(fieldsOf({ ...BASE, instrument: ' ' })).toEqual(['instrument']);
    expect(fieldsOf({ ...BASE, manual: 'yes' })).toEqual(['manual']);
    expect(fieldsOf({ ...BASE, colour: 'red' })).toEqual(['colour']);
    expect(fieldsOf({ ...BASE, sizing: { kind: 'lots', lots: 2 } })).toEqual(['sizing.lotSize']);
    expect(fieldsOf({ ...BASE, sizing: { kind: 'quantity', quantity: -1 } })).toEqual(['sizing.quantity']);
    expect(fieldsOf({ ...BASE, stopLoss: { kind: 'percent', percent: 101 } })).toEqual(['stopLoss.percent']);
    expect(fieldsOf({ ...BASE, target: { kind: 'points', points: 0 } })).toEqual(['target.points']);
    expect(fieldsOf({ ...BASE, trailingStop: { kind: 'ticks' } })).toEqual(['trailingStop.kind']);
    expect(fieldsOf({ ...BASE, dailyMaxLoss: -5, dailyMaxProfit: 0.5 })).toEqual(['dailyMaxLoss', 'dailyMaxProfit']);
  });

  it('names the field inside the legs, and what option legs do not allow', () => {
    expect(fieldsOf({ ...BASE, legs: { ...LEGS, onBuy: [{ ...LEG, lots: 0 }] } })).toEqual(['legs.onBuy[0].lots']);
    expect(fieldsOf({ ...BASE, legs: LEGS, stopLoss: { kind: 'percent', percent: 1 }, sizing: { kind: 'quantity', quantity: 1 } })).toEqual(['stopLoss', 'sizing']);
    expect(fieldsOf({ ...BASE, legs: LEGS, dailyMaxLoss: 100 })).toEqual(['dailyMaxLoss']);
  });

  it('reads back what it serialised (property)', () => {
    const exit = fc.oneof(
      fc.record({ kind: fc.constant('percent' as const), percent: fc.integer({ min: 1, max: 99 }) }),
      fc.record({ kind: fc.constant('points' as const), points: fc.integer({ min: 1, max: 500 }) }),
    );
    const sizing = fc.oneof(
      fc.constant({ kind: 'all-in' as const }),
      fc.record({ kind: fc.constant('quantity' as const), quantity: fc.integer({ min: 1, max: 10_000 }) }),
      fc.record({ kind: fc.constant('lots' as const), lots: fc.integer({ min: 1, max: 50 }), lotSize: fc.integer({ min: 1, max: 1_800 }) }),
    );
    const input = fc.record({
      algorithm: fc.record({ id: fc.constantFrom('a1', 'b2'), version: fc.integer({ min: 1, max: 99 }) }),
      instrument: fc.constantFrom('RELIANCE', 'NIFTY 50'),
      interval: fc.constantFrom(1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 1440),
      type: fc.constantFrom('intraday', 'swing'),
      investment: fc.integer({ min: 1, max: 1e12 }),
      sizing, stopLoss: exit, target: exit, trailingStop: exit,
      dailyMaxLoss: fc.integer({ min: 1, max: 1e9 }), dailyMaxProfit: fc.integer({ min: 1, max: 1e9 }),
      manual: fc.boolean(),
    }, { requiredKeys: ['algorithm', 'instrument', 'interval', 'type', 'investment'] });
    fc.assert(fc.property(input, (raw) => {
      const config = valueOf(raw);
      expect(valueOf(serializeDeployableConfig(config))).toEqual(config);
    }));
    const withLegs = valueOf({ ...BASE, legs: LEGS });
    expect(valueOf(serializeDeployableConfig(withLegs))).toEqual(withLegs);
  });
});

describe('deployableFromBacktest', () => {
  it('maps a one-cell request to the sizing and exits the backtest used', () => {
    const request = requestOf({ strategyType: 'swing', algorithms: ['a1'], frequenciesAndInvestments: [{ interval: 15, investment: 100_000 }] });
    const deployed = deployableFromBacktest(request, { version: 3 });
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(deployed.value).toMatchObject({ algorithm: { id: 'a1', version: 3 }, interval: 15, investment: 10_000_000, type: 'swing', legs: null, manual: false });
    // The input the backtest worker gives the engine for a stock (server/src/backtest/stored-run.ts), without charges and direction.
    const run = expandBacktestRequest(request)[0];
    const used: BacktestConfigInput = { capital: run?.investment, type: run?.strategyType, instrument: run?.instrument, sizing: { kind: 'all-in' } };
    expect(validateBacktestConfig(backtestConfigOf(deployed.value))).toEqual(validateBacktestConfig(used));
  });

  it('maps option legs with the legs daily limits, as the backtest did', () => {
    const request = requestOf({ algorithms: [{ id: 'a1' }], frequenciesAndInvestments: [{ investment: 500_000 }], tradeInstrumentsConfig: LEGS });
    const deployed = deployableFromBacktest(request, { version: 1, manual: true });
    if (!deployed.ok) throw new Error(JSON.stringify(deployed.error));
    expect(deployed.value.legs).toEqual(parseOptionsLegsConfig(LEGS));
    expect(deployed.value.manual).toBe(true);
    const { dailyMaxLoss } = dailyLimitsOf(parseOptionsLegsConfig(LEGS));
    const used: BacktestConfigInput = { capital: paise(50_000_000), type: 'intraday', instrument: 'NIFTY 50', dailyMaxLoss: paise(dailyMaxLoss ?? 0) };
    expect(validateBacktestConfig(backtestConfigOf(deployed.value))).toEqual(validateBacktestConfig(used));
  });

  it('needs the chosen cell when the request has several algorithms or pairs', () => {
    const request = requestOf({ algorithms: ['a1', 'a2'], frequenciesAndInvestments: [{ interval: 5, investment: 100_000 }, { interval: 15, investment: 200_000 }] });
    const refused = deployableFromBacktest(request, { version: 1 });
    expect(refused.ok ? [] : refused.error.map((issue) => issue.field)).toEqual(['algorithms', 'frequenciesAndInvestments']);
    const unknown = deployableFromBacktest(request, { version: 1, cell: 'nope' });
    expect(unknown.ok ? [] : unknown.error.map((issue) => issue.field)).toEqual(['cell']);
    const cell = expandBacktestRequest(request)[3]?.key;
    const chosen = deployableFromBacktest(request, { version: 2, ...(cell === undefined ? {} : { cell }) });
    expect(chosen.ok && chosen.value).toMatchObject({ algorithm: { id: 'a2', version: 2 }, interval: 15, investment: 20_000_000 });
  });

  it('refuses an unsaved algorithm, naming it', () => {
    const request = requestOf({ algorithms: [{ document: { nodes: [] } }], frequenciesAndInvestments: [{ investment: 100_000 }] });
    const refused = deployableFromBacktest(request, { version: 1 });
    expect(refused.ok ? [] : refused.error.map((issue) => issue.field)).toEqual(['algorithms[0]']);
  });
});

// The config the /strategies deploy dialog stores (packages/web/src/pages/trading/parts/deploy/deploy-form.ts: the
// settings only, the row's columns naming the algorithm, instrument, interval and type, and the
// `backtest` origin kept as saved) is what deploy_strategy's check accepts, and a bad setting is
// refused at its field, as the dialog shows it. No database: deployableConfigOf reads the row.
import { describe, expect, it } from 'vitest';
import { deployableConfigOf, type DeployableRow } from '../../src/trading/deploy-checks';

const ROW: DeployableRow = {
  algorithmId: 'a1b2c3d4-0000-4000-8000-000000000001', algorithmVersion: 1, instrumentName: 'NIFTY 50', intervalMinutes: 15, strategyType: 'intraday',
  config: {
    backtest: { run_id: 'b1' }, investment: 1_000_000_00, manual: false, sizing: { kind: 'lots', lots: 2, lotSize: 75 },
    stopLoss: { kind: 'percent', percent: 0.5 }, target: { kind: 'points', points: 40 }, dailyMaxLoss: 200_000,
  },
};

describe('the deploy dialog\'s stored config at deploy', () => {
  it('is deployable with the row\'s columns', () => {
    const outcome = deployableConfigOf(ROW);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.config).toMatchObject({ instrument: 'NIFTY 50', interval: 15, sizing: { kind: 'lots', lots: 2, lotSize: 75 }, dailyMaxLoss: 200_000 });
  });

  it('is refused at config.stopLoss.percent for a negative stop-loss', () => {
    const outcome = deployableConfigOf({ ...ROW, config: { ...ROW.config, stopLoss: { kind: 'percent', percent: -1 } } });
    expect(outcome.ok ? [] : outcome.issues.map((issue) => [issue.field, issue.code])).toEqual([['config.stopLoss.percent', 'invalid-config']]);
  });

  it('is refused at config.dailyMaxLoss for a limit of zero', () => {
    const outcome = deployableConfigOf({ ...ROW, config: { ...ROW.config, dailyMaxLoss: 0 } });
    expect(outcome.ok ? [] : outcome.issues.map((issue) => issue.field)).toEqual(['config.dailyMaxLoss']);
  });
});

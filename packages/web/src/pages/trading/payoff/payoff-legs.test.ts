import { describe, expect, it } from 'vitest';
import { expiriesOf, livePositionLegs, type LivePositionRow } from './payoff-legs';

type RowOverrides = Partial<Omit<LivePositionRow, 'instrument'>> & { instrument?: Partial<LivePositionRow['instrument']> };

const row = (over: RowOverrides): LivePositionRow => ({
  run_id: 'r1', instrument_id: 1, net_quantity: -65, open_cost_paise: '780000',
  ...over,
  instrument: { trading_symbol: 'NIFTY26D0124000CE', kind: 'option', expiry: '2026-12-01', strike_paise: '2400000', option_type: 'CE', ...over.instrument },
  run: over.run ?? { kind: 'PAPER' },
});

describe('live positions as payoff legs', () => {
  it('turns a short call of a PAPER run into a leg at its average price', () => {
    // 65 units short, open cost ₹7,800.00 = 780000 paise: average 780000 / 65 / 100 = ₹120 a unit.
    const { positions, skipped } = livePositionLegs([row({})], { indice: 'NIFTY 50', timestamp: 5 });
    expect(positions).toEqual([{ kind: 'option', optionType: 'CE', strike: 24000, expiry: '2026-12-01', quantity: -65, entryPrice: 120, indice: 'NIFTY 50', timestamp: 5 }]);
    expect(skipped).toEqual([]);
  });

  it('never takes a backtest (or any run that is not PAPER or LIVE), nor a flat position', () => {
    const rows = [row({ run: { kind: 'BACKTEST' } }), row({ run: { kind: 'SIMULATION' } }), row({ net_quantity: 0, open_cost_paise: 0 }), row({ run: { kind: 'LIVE' }, run_id: 'r2' })];
    expect(livePositionLegs(rows, { indice: 'NIFTY 50', timestamp: 1 }).positions.map((position) => position.quantity)).toEqual([-65]);
  });

  it('takes a future at its average price and says why it leaves anything else out', () => {
    // Long 75 futures bought at ₹24,010.40: open cost 75 x 2401040 paise.
    const future = row({ net_quantity: 75, open_cost_paise: 75 * 2_401_040, instrument: { trading_symbol: 'NIFTY26DECFUT', kind: 'future', strike_paise: null, option_type: null } });
    const equity = row({ instrument: { trading_symbol: 'RELIANCE', kind: 'equity', expiry: null, strike_paise: null, option_type: null } });
    const { positions, skipped } = livePositionLegs([future, equity], { indice: 'NIFTY 50', timestamp: 1 });
    expect(positions).toEqual([{ kind: 'future', expiry: '2026-12-01', quantity: 75, entryPrice: 24010.4, indice: 'NIFTY 50', timestamp: 1 }]);
    expect(skipped).toEqual([{ tradingSymbol: 'RELIANCE', reason: 'it has no expiry' }]);
  });

  it('lists the expiries of one index', () => {
    const positions = [
      ...livePositionLegs([row({}), row({ instrument: { expiry: '2026-12-08' } })], { indice: 'NIFTY 50', timestamp: 1 }).positions,
      ...livePositionLegs([row({ instrument: { expiry: '2026-11-30' } })], { indice: 'NIFTY BANK', timestamp: 1 }).positions,
    ];
    expect(expiriesOf(positions, 'NIFTY 50')).toEqual(['2026-12-01', '2026-12-08']);
  });
});

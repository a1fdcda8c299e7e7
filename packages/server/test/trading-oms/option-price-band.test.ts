// The OMS's fat-finger band: 20% around the last price for an index, a future or a share, but 100%
// around an option's last premium, so the stops short options are protected with (30-50% beyond
// the entry premium) are taken, while a price ten times the premium is still refused.
import { checkOrderRisk } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { priceBandOf } from '../../src/trading/oms/risk-inputs';

const KILL_SWITCH_OFF = { user: false, global: false };

function stopRefusals(kind: 'option' | 'future', trigger: number): string[] {
  const result = checkOrderRisk(
    { side: 'BUY', quantity: 75, orderType: 'SL-M', squareOff: true, triggerPricePaise: trigger },
    { lots: { kind: 'explicit', lotSize: 75 }, priceBand: priceBandOf(10_000, kind), positionQuantity: -75, strategyDayPnlPaise: 0, userDayPnlPaise: 0, killSwitch: KILL_SWITCH_OFF },
  );
  return result.ok ? [] : result.error.map((refusal) => refusal.code);
}

describe('the price band of an order', () => {
  it('is 100% either side of an option premium and 20% of anything else', () => {
    expect(priceBandOf(10_000, 'option')).toEqual({ lowerPaise: 1, upperPaise: 20_000 });
    expect(priceBandOf(10_000, 'future')).toEqual({ lowerPaise: 8_000, upperPaise: 12_000 });
    expect(priceBandOf(10_000)).toEqual({ lowerPaise: 8_000, upperPaise: 12_000 });
  });

  it('takes a short option\'s 30% and 50% stops, refuses ten times the premium, and refuses a 30% stop on a future', () => {
    expect(stopRefusals('option', 13_000)).toEqual([]);
    expect(stopRefusals('option', 15_000)).toEqual([]);
    expect(stopRefusals('option', 100_000).length).toBeGreaterThan(0);
    expect(stopRefusals('future', 13_000).length).toBeGreaterThan(0);
  });
});

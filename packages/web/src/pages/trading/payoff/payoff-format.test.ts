import { describe, expect, it } from 'vitest';
import { boundText, breakevensText, fixed, greekText, legText, probabilityText, volatilityPoints } from './payoff-format';

describe('payoff display text', () => {
  it('writes levels, bounds and probabilities', () => {
    expect(breakevensText([23_710, 24_290.456])).toBe('23,710, 24,290.46');
    expect(breakevensText([])).toBe('none');
    expect(boundText('unlimited')).toBe('Unlimited');
    expect(boundText(-18_850)).toBe('-₹18,850.00');
    expect(probabilityText(0.51234)).toBe('51.23%');
    expect(fixed(-0.0001, 2)).toBe('0.00');
    expect(volatilityPoints(0.11184)).toBe(11.18);
  });

  it('writes greeks with their units and legs as holdings', () => {
    expect(greekText.theta(1047.2249)).toBe('₹1,047.22/day');
    expect(greekText.vega(-549.02)).toBe('-₹549.02/vol pt');
    expect(greekText.gamma(-0.10791)).toBe('-0.1079');
    expect(legText({ kind: 'option', optionType: 'CE', strike: 24_500, quantity: -130 })).toBe('Short 130 × 24,500 CE');
    expect(legText({ kind: 'future', quantity: 75 })).toBe('Long 75 × FUT');
  });
});

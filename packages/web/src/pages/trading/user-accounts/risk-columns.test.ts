// The account-risk columns' reading and typing rules.
import { describe, expect, it } from 'vitest';
import { levelText, parseLevel, riskOf, type AccountRiskRow } from './risk-columns';

const ROW: AccountRiskRow = {
  user_broker_id: 'b', enable_sl: true, sl: '500000', default_sl: 100000, trail_enabled: false, trail_mode: 'POINTS', trail_tsl: 0,
  enable_target: false, tgt: 0, default_tgt: 0, trail_ttg: 0, levels_day: '2026-12-02', updated_at: '',
};

describe('account risk columns', () => {
  it("reads today's levels on their day and the defaults on any other", () => {
    expect(riskOf(ROW, '2026-12-02').sl).toBe(500_000);
    expect(riskOf(ROW, '2026-12-03').sl).toBe(100_000);
    expect(riskOf(undefined, '2026-12-03').enable_sl).toBe(false);
  });

  it('writes levels in rupees or percent', () => {
    expect(levelText(250_000, 'POINTS')).toBe('₹2,500.00');
    expect(levelText(150, 'PERCENT')).toBe('1.5%');
  });

  it('parses typed levels to hundredths and refuses bad ones naming the column', () => {
    expect(parseLevel('2,500.5', 'POINTS', 'sl')).toEqual({ ok: true, value: 250_050 });
    expect(parseLevel('1.25', 'PERCENT', 'tgt')).toEqual({ ok: true, value: 125 });
    expect(parseLevel('120', 'PERCENT', 'tgt')).toEqual({ ok: false, error: 'tgt: at most 100% in PERCENT mode' });
    expect(parseLevel('-5', 'POINTS', 'sl')).toEqual({ ok: false, error: 'sl: type rupees, 0 or more, with at most 2 decimals' });
    expect(parseLevel('1.234', 'POINTS', 'sl').ok).toBe(false);
  });
});

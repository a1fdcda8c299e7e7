import { isoDate, paise } from '@vyuha/core';
import { describe, expect, it } from 'vitest';
import { specialDayPerformance } from './special-days';

const day = (date: string, rupees: number) => ({ date: isoDate(date), netPnl: paise(rupees * 100), grossPnl: paise(rupees * 100), charges: paise(0), orders: 2 });

describe('performance on special days', () => {
  it('reports the 2024 exit-poll and results days with their P&L', () => {
    const days = [day('2024-06-03', 4_000), day('2024-06-05', 100)];
    const result = specialDayPerformance({ days, from: isoDate('2024-06-01'), to: isoDate('2024-06-30') });
    expect(result.map((entry) => [entry.date, entry.kind, entry.netPnl, entry.traded])).toEqual([
      ['2024-06-03', 'exit_poll_reaction', 400_000, true],
      ['2024-06-04', 'election_results', 0, false],
    ]);
    expect(result[1]?.note).toMatch(/Lok Sabha 2024/);
  });

  it('shows a weekend budget session once, as the budget day, and leaves holidays out', () => {
    const result = specialDayPerformance({ days: [day('2025-02-01', -1_500)], from: isoDate('2024-11-01'), to: isoDate('2025-02-28') });
    expect(result.map((entry) => entry.date)).toEqual(['2024-11-01', '2025-02-01']);
    const budget = result[1];
    expect(budget?.kind).toBe('budget_day');
    expect(budget?.kinds).toEqual(['budget_weekend_session', 'budget_day']);
    expect(budget?.netPnl).toBe(-150_000);
    expect(result.some((entry) => entry.date === '2024-11-20')).toBe(false); // election holiday: closed
  });

  it('filters by kind', () => {
    const result = specialDayPerformance({ days: [], from: isoDate('2020-01-01'), to: isoDate('2026-12-31'), kinds: ['budget_day'] });
    expect(result.length).toBeGreaterThanOrEqual(6);
    expect(result.every((entry) => entry.kind === 'budget_day' && entry.date.endsWith('-02-01') || entry.date === '2024-07-23')).toBe(true);
  });
});

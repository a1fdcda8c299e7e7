import { describe, expect, it } from 'vitest';
import { candlesUntil, chartRange, equityCurves, pickRun, replayOf, replayReachedOf, replayShownUntil, runErrorWords, tradeMarks } from './detail-model';

describe('pickRun', () => {
  const runs = [
    { run_id: 'newest', status: 'COMPLETE' },
    { run_id: 'current', status: 'IN PROGRESS' },
    { run_id: 'old', status: 'ERROR' },
  ];
  it('shows the run asked for when it is one of the strategy’s', () => {
    expect(pickRun(runs, 'old')?.run_id).toBe('old');
  });
  it('otherwise the run in progress, else the newest', () => {
    expect(pickRun(runs, 'someone-elses')?.run_id).toBe('current');
    expect(pickRun(runs.filter((run) => run.status !== 'IN PROGRESS'), null)?.run_id).toBe('newest');
    expect(pickRun([], null)).toBeUndefined();
  });
});

describe('replayOf and chartRange', () => {
  it('reads the replay deploy_strategy stored and refuses anything else', () => {
    expect(replayOf({ mode: 'PAPER', replay: { from: '2026-09-01', to: '2026-09-30', speed: 600 } })).toEqual({ from: '2026-09-01', to: '2026-09-30', speed: 600 });
    expect(replayOf({ mode: 'PAPER', replay: null })).toBeUndefined();
    expect(replayOf({ replay: { from: '1 Sep', to: '2026-09-30', speed: 600 } })).toBeUndefined();
    expect(replayOf(null)).toBeUndefined();
  });
  it('loads a replay’s whole range, and a market run’s last ten days up to today or its finish', () => {
    const replay = { from: '2026-09-01', to: '2026-09-30', speed: 600 } as const;
    expect(chartRange({ replay: replayOf({ replay }), startedAt: 0, finishedAt: undefined, today: '2026-11-27' as never })).toEqual({ from: '2026-09-01', to: '2026-09-30' });
    // Started 2026-11-25 10:00 IST (04:30 UTC): from that day, to today.
    expect(chartRange({ replay: undefined, startedAt: Date.UTC(2026, 10, 25, 4, 30), finishedAt: undefined, today: '2026-11-27' as never }))
      .toEqual({ from: '2026-11-25', to: '2026-11-27' });
    // Started months ago, finished 2026-11-20 15:30 IST: ten days back from the finish.
    expect(chartRange({ replay: undefined, startedAt: Date.UTC(2026, 5, 1), finishedAt: Date.UTC(2026, 10, 20, 10, 0), today: '2026-11-27' as never }))
      .toEqual({ from: '2026-11-10', to: '2026-11-20' });
  });
});

describe('tradeMarks', () => {
  it('marks entries by side and anything that reduces the position as an exit, each instrument on its own', () => {
    // Instrument 1: long 50 (entry), sell 50 (exit), short 75 (sell entry), buy 25 then 50 (two exits).
    // Instrument 2, another contract, is flat when it buys 10 at 250: an entry, though instrument 1 is long then.
    const marks = tradeMarks([
      { side: 'BUY', instrumentId: 1, fills: [{ quantity: 50, time: 100 }] },
      { side: 'SELL', instrumentId: 1, fills: [{ quantity: 50, time: 200 }] },
      { side: 'SELL', instrumentId: 1, fills: [{ quantity: 75, time: 300 }] },
      { side: 'BUY', instrumentId: 1, fills: [{ quantity: 25, time: 400 }, { quantity: 50, time: 500 }] },
      { side: 'BUY', instrumentId: 2, fills: [{ quantity: 10, time: 150 }] },
    ]);
    expect(marks).toEqual([
      { time: 100, kind: 'buy' }, { time: 150, kind: 'buy' }, { time: 200, kind: 'exit' }, { time: 300, kind: 'sell' }, { time: 400, kind: 'exit' }, { time: 500, kind: 'exit' },
    ]);
  });
  it('sorts fills by time whatever the order list’s order', () => {
    expect(tradeMarks([
      { side: 'SELL', instrumentId: 1, fills: [{ quantity: 1, time: 20 }] },
      { side: 'BUY', instrumentId: 1, fills: [{ quantity: 1, time: 10 }] },
    ]).map((mark) => mark.kind)).toEqual(['buy', 'exit']);
  });
});

describe('candlesUntil', () => {
  const candles = { time: Float64Array.from([0, 60, 120, 180]), open: [1, 2, 3, 4], high: [1, 2, 3, 4], low: [1, 2, 3, 4], close: [1, 2, 3, 4] };
  it('keeps the bars up to the one containing the instant', () => {
    const cut = candlesUntil(candles, 130);
    expect(Array.from(cut.time)).toEqual([0, 60, 120]);
    expect(Array.from(cut.close)).toEqual([1, 2, 3]);
  });
  it('keeps none before the first bar and all when nothing limits it', () => {
    expect(candlesUntil(candles, -1).time.length).toBe(0);
    expect(candlesUntil(candles, undefined)).toBe(candles);
    expect(candlesUntil(candles, 10_000)).toBe(candles);
  });
});

describe('replayReachedOf and replayShownUntil', () => {
  const replay = { from: '2026-09-01', to: '2026-09-30', speed: 600 } as never;
  it('reads the market time the runner wrote, and nothing else', () => {
    expect(replayReachedOf({ replay, replayedUntilMs: 1_788_000_000_000 })).toBe(1_788_000_000_000);
    expect(replayReachedOf({ replayedUntilMs: '1788000000000' })).toBe(1_788_000_000_000);
    expect(replayReachedOf({ replay })).toBeUndefined();
    expect(replayReachedOf({ replayedUntilMs: 'soon' })).toBeUndefined();
    expect(replayReachedOf(null)).toBeUndefined();
  });
  it('shows a replay in progress up to the later of its market time and its latest order, nothing before either', () => {
    expect(replayShownUntil({ replay, inProgress: true, reachedMs: 2_000, writtenMs: 1_500 })).toBe(2_000);
    expect(replayShownUntil({ replay, inProgress: true, reachedMs: 2_000, writtenMs: 2_500 })).toBe(2_500);
    expect(replayShownUntil({ replay, inProgress: true, reachedMs: undefined, writtenMs: undefined })).toBe(Number.NEGATIVE_INFINITY);
  });
  it('shows an ended replay up to where it reached (all of it when never written), a market run all it loaded', () => {
    expect(replayShownUntil({ replay, inProgress: false, reachedMs: 3_000, writtenMs: 1_000 })).toBe(3_000);
    expect(replayShownUntil({ replay, inProgress: false, reachedMs: undefined, writtenMs: 1_000 })).toBeUndefined();
    expect(replayShownUntil({ replay: undefined, inProgress: true, reachedMs: 3_000, writtenMs: 1_000 })).toBeUndefined();
  });
});

describe('equityCurves', () => {
  it('adds the days up in date order and measures the fall from the best day', () => {
    // +1,000 -> 1,000 (peak); -3,000 -> -2,000 (3,000 below the peak); +500 -> -1,500 (2,500 below); in paise.
    const curves = equityCurves([
      { date: '2026-09-02', pnlPaise: -300_000 },
      { date: '2026-09-01', pnlPaise: 100_000 },
      { date: '2026-09-03', pnlPaise: 50_000 },
    ]);
    expect(curves.equity).toEqual([{ time: '2026-09-01', value: 1000 }, { time: '2026-09-02', value: -2000 }, { time: '2026-09-03', value: -1500 }]);
    expect(curves.drawdown.map((point) => point.value)).toEqual([0, -3000, -2500]);
    expect(curves.totalPaise).toBe(-150_000);
    expect(curves.maxDrawdownPaise).toBe(-300_000);
  });
  it('is empty without days', () => {
    expect(equityCurves([])).toEqual({ equity: [], drawdown: [], totalPaise: 0, maxDrawdownPaise: 0 });
  });
});

describe('runErrorWords', () => {
  it('says why an ERROR run ended: its error, else its status reason, else a sentence', () => {
    expect(runErrorWords({ status: 'ERROR', error: 'Broker session expired', status_reason: 'other' })).toBe('Broker session expired');
    expect(runErrorWords({ status: 'ERROR: SQUARED OFF', error: ' ', status_reason: 'Daily loss limit hit' })).toBe('Daily loss limit hit');
    expect(runErrorWords({ status: 'ERROR', error: null, status_reason: null })).toBe('The run stopped with an error and recorded no reason.');
  });
  it('says nothing for a run that did not fail', () => {
    expect(runErrorWords({ status: 'COMPLETE', error: 'leftover', status_reason: null })).toBeUndefined();
  });
});

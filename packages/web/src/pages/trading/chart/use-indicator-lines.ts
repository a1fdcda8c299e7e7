// An indicator group's lines over the chart's candles, computed in the chart worker whenever the
// group or the candles change; a stale answer (the user moved on) is dropped, and lines are only
// handed out with the very candles they were computed over.
import { useEffect, useState } from 'react';
import type { ChartCandles } from './chart-candles';
import { requestIndicators } from './chart-worker-client';
import type { IndicatorLine } from './indicator-groups';

export interface IndicatorLinesState {
  readonly status: 'idle' | 'computing' | 'done' | 'failed';
  readonly lines: readonly IndicatorLine[];
  readonly error?: string;
}

const NONE: readonly IndicatorLine[] = [];

interface Answer {
  readonly indicators: unknown;
  readonly candles: ChartCandles;
  readonly lines: readonly IndicatorLine[];
  readonly error: string | undefined;
}

export function useIndicatorLines(indicators: unknown, candles: ChartCandles | undefined): IndicatorLinesState {
  const [answer, setAnswer] = useState<Answer | undefined>(undefined);
  useEffect(() => {
    if (indicators === undefined || candles === undefined) return undefined;
    let current = true;
    requestIndicators(indicators, candles).then(
      (result) => { if (current) setAnswer({ indicators, candles, lines: result.ok ? result.lines : NONE, error: result.ok ? undefined : result.error }); },
      (error: unknown) => { if (current) setAnswer({ indicators, candles, lines: NONE, error: error instanceof Error ? error.message : String(error) }); },
    );
    return () => { current = false; };
  }, [indicators, candles]);
  if (indicators === undefined || candles === undefined) return { status: 'idle', lines: NONE };
  if (answer === undefined || answer.indicators !== indicators || answer.candles !== candles) return { status: 'computing', lines: NONE };
  return answer.error === undefined ? { status: 'done', lines: answer.lines } : { status: 'failed', lines: NONE, error: answer.error };
}

// What the results screen shows of a strategy_runs row: its title and the cell of the form it
// stands for (range, interval, investment, instrument), read from params (format vyuha.backtest-run).
import { numberField, objectField, stringField } from '../../research/display';
import { runCell } from '../../research/run-metrics';

export interface RunRecord {
  readonly run_id: string;
  readonly strategy_id?: string | null;
  readonly status: string;
  readonly progress: number;
  readonly candles: number;
  readonly error: string | null;
  readonly params: unknown;
  readonly metrics: unknown;
  readonly result: unknown;
  readonly started_at: string;
  readonly finished_at: string | null;
}

export interface RunView {
  readonly runId: string;
  readonly title: string;
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly interval: number | undefined;
  readonly investmentPaise: number | undefined;
  readonly instrumentId: number | undefined;
  readonly tradingSymbol: string | undefined;
}

/**
 * The run's title: algorithm, range, interval and investment.
 * @example runTitle(params) // 'SMA cross v1 · 2026-08-03 to 2026-09-30 · 5 min · ₹5L'
 */
export function runTitle(params: unknown, fallback: string, money: (paise: number) => string): string {
  const cell = runCell(params);
  const range = cell.from !== undefined && cell.to !== undefined ? `${cell.from} to ${cell.to}` : undefined;
  const parts = [cell.algorithm, range, cell.interval === undefined ? undefined : `${cell.interval} min`,
    cell.investmentPaise === undefined ? undefined : money(cell.investmentPaise)];
  return parts.filter((part) => part !== undefined).join(' · ') || fallback;
}

/** The view of a run row. */
export function runView(run: Pick<RunRecord, 'run_id' | 'params'>, money: (paise: number) => string): RunView {
  const cell = runCell(run.params);
  const instrument = objectField(run.params, 'instrument');
  return {
    runId: run.run_id, title: runTitle(run.params, run.run_id, money), from: cell.from, to: cell.to, interval: cell.interval,
    investmentPaise: cell.investmentPaise, instrumentId: numberField(instrument, 'instrumentId'), tradingSymbol: stringField(instrument, 'tradingSymbol'),
  };
}

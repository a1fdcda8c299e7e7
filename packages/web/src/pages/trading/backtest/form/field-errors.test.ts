// Where the backtest form's errors show: issue paths to fields, and refusals of run_backtest (as the
// server words them in backtest-input.ts and run-backtest.ts) to fields, the credits line or a toast.
import { formatRequestIssues } from '@vyuha/engine';
import { describe, expect, it } from 'vitest';
import { errorAt, errorWithin, fieldErrorsOf, INPUT_PATH, isShownPath, issuesInMessage, refusalOf, unplacedMessages } from './field-errors';

/** A validation refusal as the server builds it: every issue in the message, the first one's path. */
function serverRefusal(issues: { path: string; message: string }[], code = 'validation-failed') {
  return { message: formatRequestIssues(issues).replaceAll('\n', '; '), extensions: { code, path: `${INPUT_PATH}.${issues[0]?.path ?? ''}` } };
}

describe('field errors', () => {
  const errors = fieldErrorsOf([
    { path: 'dateRanges[1]', message: 'overlaps dateRanges[0]' },
    { path: 'dateRanges[1]', message: 'a second message for the same range' },
    { path: 'tradeInstrumentsConfig.onBuy[0].strike.steps', message: 'must be a whole number' },
    { path: 'tradeInstrumentsConfig.config', message: 'must be an object' },
  ]);

  it('keeps the first message of each path', () => {
    expect(errorAt(errors, 'dateRanges[1]')).toBe('overlaps dateRanges[0]');
  });

  it('finds a message inside a control, never in a sibling whose name starts the same', () => {
    expect(errorWithin(errors, 'tradeInstrumentsConfig.onBuy[0].strike')).toBe('must be a whole number');
    expect(errorWithin(errors, 'tradeInstrumentsConfig.onBuy[0].str')).toBeUndefined();
    expect(errorWithin(errors, 'dateRanges[1].from')).toBeUndefined();
    expect(errorAt(errors, 'dateRanges[1]')).toBeDefined();
  });

  it("reads the engine's whole-config path as the trade field", () => {
    expect(errorAt(errors, 'tradeInstrumentsConfig')).toBe('must be an object');
  });

  it('lists issues that have no field', () => {
    expect(unplacedMessages([{ path: '', message: 'expands to 1200 runs' }, { path: 'window', message: 'bad' }])).toEqual(['expands to 1200 runs']);
  });

  it('knows which paths the form shows', () => {
    for (const path of ['name', 'algorithms[2]', 'dateRanges', 'dateRanges[1].to', 'frequenciesAndInvestments[0].investment', 'tradeInstrumentsConfig.underlying', 'tradeInstrumentsConfig.onSell[3].strike.delta']) {
      expect(isShownPath(path), path).toBe(true);
    }
    for (const path of ['', 'dateRanges[1].middle', 'tradeInstrumentsConfig.mystery', 'windows']) expect(isShownPath(path), path).toBe(false);
  });
});

describe('refusalOf (run_backtest refusals)', () => {
  it('places every issue of a validation refusal at its field', () => {
    const refusal = refusalOf(serverRefusal([
      { path: 'dateRanges[1]', message: 'overlaps dateRanges[0] (2026-09-01 to 2026-09-30): a date range must start after the previous one ends' },
      { path: 'frequenciesAndInvestments[0].investment', message: 'must be rupees above 0 (at most 1e13), got 0' },
    ]));
    expect(refusal).toEqual({ kind: 'fields', unplaced: [], issues: [
      { path: 'dateRanges[1]', message: 'overlaps dateRanges[0] (2026-09-01 to 2026-09-30): a date range must start after the previous one ends' },
      { path: 'frequenciesAndInvestments[0].investment', message: 'must be rupees above 0 (at most 1e13), got 0' },
    ] });
  });

  it("keeps a message's own '; ' (an unknown instrument's suggestions)", () => {
    const message = 'instrument: unknown instrument "NIFTY 5"; did you mean NSE:NIFTY (NIFTY 50)?';
    expect(refusalOf({ message, extensions: { code: 'validation-failed', path: `${INPUT_PATH}.instrument` } })).toEqual({
      kind: 'fields', unplaced: [], issues: [{ path: 'instrument', message: 'unknown instrument "NIFTY 5"; did you mean NSE:NIFTY (NIFTY 50)?' }],
    });
  });

  it('places a tier refusal (permission-error) at the range', () => {
    const refusal = refusalOf(serverRefusal([{ path: 'dateRanges[0]', message: '2019-01-01 to 2019-02-01 starts before 2020-01-01, the earliest date your tier may backtest at 5-minute candles' }], 'permission-error'));
    expect(refusal.kind === 'fields' && refusal.issues[0]?.path).toBe('dateRanges[0]');
  });

  it('places an options-legs refusal at the leg field', () => {
    const refusal = refusalOf({
      message: 'tradeInstrumentsConfig.onBuy[0].lots: must be a whole number between 1 and 500, got 0',
      extensions: { code: 'validation-failed', path: `${INPUT_PATH}.tradeInstrumentsConfig.onBuy[0].lots` },
    });
    expect(refusal).toEqual({ kind: 'fields', unplaced: [], issues: [{ path: 'tradeInstrumentsConfig.onBuy[0].lots', message: 'must be a whole number between 1 and 500, got 0' }] });
  });

  it('uses the path when the message does not start with one', () => {
    expect(refusalOf({ message: 'something odd', extensions: { code: 'validation-failed', path: `${INPUT_PATH}.window` } })).toEqual({
      kind: 'fields', unplaced: [], issues: [{ path: 'window', message: 'something odd' }],
    });
  });

  it('toasts the issues of a refusal that name no field of the form, and places the rest', () => {
    const refusal = refusalOf(serverRefusal([{ path: 'window', message: 'must be one of ...' }, { path: 'dateRanges[0].middle', message: 'odd' }]));
    expect(refusal).toEqual({ kind: 'fields', issues: [{ path: 'window', message: 'must be one of ...' }], unplaced: ['dateRanges[0].middle: odd'] });
    expect(refusalOf(serverRefusal([{ path: 'tradeInstrumentsConfig.mystery', message: 'is not a known field' }])).kind).toBe('toast');
  });

  it('sends insufficient credits to the credits line', () => {
    const message = 'this backtest needs 4650 BACKTEST credits (candles) and 1200 are available';
    expect(refusalOf({ message, extensions: { code: 'insufficient-credits', path: '$.selectionSet.run_backtest' } })).toEqual({ kind: 'credits', message });
  });

  it('toasts what names no field: role, permission, the whole input', () => {
    expect(refusalOf({ message: 'run_backtest needs the strategy:backtest permission', extensions: { code: 'permission-error', path: '$.selectionSet.run_backtest' } }))
      .toEqual({ kind: 'toast', message: 'run_backtest needs the strategy:backtest permission' });
    expect(refusalOf({ message: 'expands to 1200 runs', extensions: { code: 'validation-failed', path: INPUT_PATH } }).kind).toBe('toast');
    expect(refusalOf({ message: 'network down' }).kind).toBe('toast');
  });
});

describe('issuesInMessage', () => {
  it('is empty for text that is not a list of field issues', () => {
    expect(issuesInMessage('this action needs a signed-in user')).toEqual([]);
  });
});

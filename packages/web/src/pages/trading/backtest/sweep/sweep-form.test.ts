import { describe, expect, it } from 'vitest';
import { constraintLines, declaredParameters, generalIssues, initialForm, issueAt, readSweepForm, serverIssues } from './sweep-form';

const RUN = '6f1c2a70-3c1e-4c1a-9a59-2d0f3f7f1e11';
const PARAMETERS = declaredParameters([
  { name: 'fast', default: 10, from: 5, to: 15, step: 5 },
  { name: 'slow', default: 30, from: 20, to: 40, step: 10 },
  { name: 'broken', from: 'x' },
]);

describe('the sweep form', () => {
  it('reads the declared parameters, leaving out malformed ones', () => {
    expect(PARAMETERS.map((parameter) => parameter.name)).toEqual(['fast', 'slow']);
  });

  it('starts from the algorithm ranges and gives the input estimate_sweep takes', () => {
    const read = readSweepForm(RUN, initialForm(PARAMETERS, ['$fast < $slow']));
    expect(read).toEqual({
      ok: true,
      input: {
        run_id: RUN, kind: 'sweep', metric: 'sharpe', sample: null, walkForward: null, constraints: ['$fast < $slow'],
        parameters: [{ name: 'fast', from: 5, to: 15, step: 5 }, { name: 'slow', from: 20, to: 40, step: 10 }],
      },
    });
  });

  it('reads a seeded sample and walk-forward windows; an empty step leaves the server default', () => {
    const form = { ...initialForm(PARAMETERS, []), kind: 'walkforward' as const, sampled: true, sampleCount: '6', sampleSeed: '42', inSampleDays: '15', outOfSampleDays: '5', anchored: true };
    const read = readSweepForm(RUN, form);
    expect(read.ok && read.input.sample).toEqual({ count: 6, seed: 42 });
    expect(read.ok && read.input.walkForward).toEqual({ inSampleDays: 15, outOfSampleDays: 5, anchored: true });
    const stepped = readSweepForm(RUN, { ...form, stepDays: '10' });
    expect(stepped.ok && stepped.input.walkForward).toEqual({ inSampleDays: 15, outOfSampleDays: 5, stepDays: 10, anchored: true });
  });

  it('names every field that is not a number', () => {
    const base = initialForm(PARAMETERS, []);
    const form = { ...base, ranges: [{ ...base.ranges[0]!, step: 'five' }, base.ranges[1]!], sampled: true, sampleCount: '2.5', kind: 'walkforward' as const, outOfSampleDays: '0' };
    const read = readSweepForm(RUN, form);
    expect(read.ok).toBe(false);
    expect(read.ok ? [] : Object.keys(read.issues).sort()).toEqual(['parameters[0].step', 'sample.count', 'walkForward.outOfSampleDays']);
  });

  it('drops blank constraint lines', () => {
    expect(constraintLines('  $fast < $slow \n\n$slow - $fast >= 5\n')).toEqual(['$fast < $slow', '$slow - $fast >= 5']);
  });
});

describe('the server refusals by field', () => {
  it('puts each issue under its field without repeating the path, constraints by line', () => {
    const issues = serverIssues({
      message: 'joined',
      extensions: { issues: [
        { path: 'parameters[1].step', message: 'parameters[1].step: (to - from) / step must be whole' },
        { path: 'constraints[1]', message: 'constraints[1]: 1:7: unknown parameter $slo' },
        { path: 'run_id', message: 'run_id: no backtest run of yours' },
      ] },
    });
    expect(issues['parameters[1].step']).toBe('(to - from) / step must be whole');
    expect(issueAt(issues, 'constraints')).toBe('line 2: 1:7: unknown parameter $slo');
    expect(generalIssues(issues, ['parameters[0]', 'parameters[1]', 'constraints'])).toEqual(['run_id: no backtest run of yours']);
  });

  it('keeps a refusal without issues (too few credits) as a message for the whole form', () => {
    expect(serverIssues({ message: 'this sweep needs 90 BACKTEST credits and 10 are available' })).toEqual({ '': 'this sweep needs 90 BACKTEST credits and 10 are available' });
    expect(generalIssues({ '': 'no credits' }, ['constraints'])).toEqual(['no credits']);
  });
});

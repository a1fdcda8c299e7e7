// The parameters form's model: transitions, where each declaration problem goes (the engine's
// range checks under their field, constraint errors under their constraint, empty fields in the
// editor's words), and rule expressions checked with their $names bound to the defaults.
import { describe, expect, it } from 'vitest';
import {
  addConstraint, addParameter, checkRuleExpression, declarationsOf, numberOf, parameterScope, placeDeclarationErrors, removeParameter,
  storedDeclarations, sweepCombinations, updateConstraint, updateParameter, type Declarations,
} from './parameters-model';

const FAST = { name: 'fast', default: 10, from: 5, to: 20, step: 5 };
const SLOW = { name: 'slow', default: 30, from: 20, to: 60, step: 10 };
const BOTH: Declarations = { parameters: [FAST, SLOW], constraints: ['$fast < $slow'] };

describe('parameter declarations: transitions', () => {
  it('adds parameters with free names, edits and removes them, and stores empty lists as nothing', () => {
    let declarations = declarationsOf(undefined);
    expect(storedDeclarations(declarations)).toEqual({});
    declarations = addParameter(addParameter(declarations));
    expect(declarations.parameters.map((parameter) => parameter.name)).toEqual(['p1', 'p2']);
    declarations = updateParameter(declarations, 1, { name: 'slow', default: 30, to: 60 });
    expect(declarations.parameters[1]).toEqual({ name: 'slow', default: 30, from: 5, to: 60, step: 5 });
    declarations = updateConstraint(addConstraint(declarations), 0, '$p1 < $slow');
    expect(storedDeclarations(declarations)).toEqual({ parameters: declarations.parameters, constraints: ['$p1 < $slow'] });
    expect(removeParameter(declarations, 0).parameters.map((parameter) => parameter.name)).toEqual(['slow']);
  });

  it('reads an empty number field as NaN', () => {
    expect(numberOf('')).toBeNaN();
    expect(numberOf(' ')).toBeNaN();
    expect(numberOf('2.5')).toBe(2.5);
    expect(numberOf(7)).toBe(7);
  });

  it('counts the combinations a sweep would run: 4 x 5 = 20, 19 with $fast < $slow', () => {
    expect(sweepCombinations(BOTH)).toBe(19);
    expect(sweepCombinations({ ...BOTH, constraints: [] })).toBe(20);
    expect(sweepCombinations({ parameters: [], constraints: [] })).toBeUndefined();
    expect(sweepCombinations({ ...BOTH, parameters: [{ ...FAST, step: 0 }, SLOW] })).toBeUndefined();
  });
});

describe('parameter declarations: errors by field', () => {
  it('has none for a valid grid and constraint', () => {
    const errors = placeDeclarationErrors(BOTH);
    expect([...errors.fields, ...errors.constraints, ...errors.all]).toEqual([]);
  });

  it("puts the engine's range checks under their fields and names the parameter in the panel", () => {
    const errors = placeDeclarationErrors({ parameters: [{ ...FAST, step: 0 }, { ...SLOW, default: 70 }, { ...FAST, name: '$x' }], constraints: [] });
    expect(errors.fields.get('0.step')).toBe('must be greater than 0, got 0');
    expect(errors.fields.get('1.default')).toBe('must be within from..to (20..60), got 70');
    expect(errors.fields.get('2.name')).toMatch(/^a parameter name is a letter or '_'.*write the name without '\$': "x"/);
    expect(errors.all).toContain('$fast step: must be greater than 0, got 0');
  });

  it('says "Enter a number" for an empty field and names an empty name and a duplicate', () => {
    const errors = placeDeclarationErrors({ parameters: [{ ...FAST, to: Number.NaN }, { ...SLOW, name: '' }, { ...SLOW }, { ...SLOW }], constraints: [] });
    expect(errors.fields.get('0.to')).toBe('Enter a number');
    expect(errors.fields.get('1.name')).toMatch(/^Name the parameter/);
    expect(errors.fields.get('3.name')).toBe("duplicate parameter 'slow' (also parameters[2])");
  });

  it('puts constraint errors under their constraint with line:column: undeclared, not a condition, broken at the defaults, empty', () => {
    const errors = placeDeclarationErrors({ parameters: [FAST, SLOW], constraints: ['$fast < $slwo', '$fast + 1', '$fast > $slow', ''] });
    expect(errors.constraints.get(0)).toEqual([`1:9: unknown parameter '$slwo'; did you mean 'slow'?: declare it under "parameters"`]);
    expect(errors.constraints.get(1)?.[0]).toMatch(/^1:1: /);
    expect(errors.constraints.get(3)).toEqual(['Write a condition over $parameters, e.g. $fast < $slow']);
    // The defaults (10, 30) break only the third; it is reported once the others are fixed.
    const defaults = placeDeclarationErrors({ parameters: [FAST, SLOW], constraints: ['$fast > $slow'] });
    expect(defaults.constraints.get(0)).toEqual(['$fast = 10, $slow = 30 break the constraint $fast > $slow']);
    expect(defaults.all).toEqual(['constraint 1: $fast = 10, $slow = 30 break the constraint $fast > $slow']);
  });
});

describe('rule expressions with $parameters', () => {
  const scope = parameterScope(BOTH.parameters);

  it('accepts $names where numbers go once declared', () => {
    expect(checkRuleExpression('crossover(sma(close, $fast), sma(close, $slow))', scope)).toEqual([]);
    expect(checkRuleExpression('rsi(close, 14) > $fast and close > open * (1 + $slow / 100)', scope)).toEqual([]);
  });

  it('names an undeclared $name at its line:column with the declared ones', () => {
    expect(checkRuleExpression('sma(close, $fsat) > 0', scope)).toEqual(["1:12: unknown parameter '$fsat': declare it under Parameters (declared: $fast, $slow)"]);
    expect(checkRuleExpression('close > $x', parameterScope([]))).toEqual(["1:9: unknown parameter '$x': add it under Parameters"]);
  });

  it('checks the expression with the defaults bound, naming the value at the $name', () => {
    const half = parameterScope([{ name: 'n', default: 2.5, from: 0, to: 5, step: 2.5 }]);
    expect(checkRuleExpression('sma(close, $n) > 0', half)).toEqual(['1:12: the period of sma must be a whole number; got 2.5 ($n = 2.5)']);
    expect(checkRuleExpression('sma(close, $fast) >', scope)[0]).toMatch(/^1:20: /);
  });

  it('leaves a $name without a usable default to its field', () => {
    expect(checkRuleExpression('sma(close, $fast) > 0', parameterScope([{ ...FAST, default: Number.NaN }]))).toEqual([]);
  });
});

import { expect, test } from 'vitest';
import { paiseToRupeesText, toCsv } from './csv';

test('paise become exact rupee text', () => {
  expect(paiseToRupeesText(-12_345)).toBe('-123.45');
  expect(paiseToRupeesText(5)).toBe('0.05');
  expect(paiseToRupeesText(0)).toBe('0.00');
});

test('fields with commas or quotes are quoted', () => {
  expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1, 2]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1,2\r\n');
});

import { expect, test } from 'vitest';
import { toCsv } from './csv';

test('fields with commas or quotes are quoted', () => {
  expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1, 2]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1,2\r\n');
});

export type { Result } from './result';
export { ok, err } from './result';
export type { Paise } from './money';
export { paise, rupeesToPaise, InvalidMoneyError } from './money';

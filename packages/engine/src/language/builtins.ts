/** The language's own functions (indicators come from the indicator table). */
export interface BuiltinFunction {
  readonly name: BuiltinName;
  /** How a call is written, for messages and the editor's help. */
  readonly signature: string;
  readonly summary: string;
  readonly example: string;
}

export type BuiltinName = 'crossover' | 'crossunder' | 'time' | 'abs' | 'min' | 'max' | 'highest' | 'lowest';

/** Largest lookback (`close[n]`) and window (`highest(close, n)`): bounds a program's memory. */
export const MAX_LOOKBACK_BARS = 100_000;

export const BUILTIN_FUNCTIONS: readonly BuiltinFunction[] = [
  {
    name: 'crossover',
    signature: 'crossover(a, b)',
    summary: 'true on the bar where a - b turns positive and the last non-zero a - b before it was negative',
    example: 'crossover(sma(close, 10), sma(close, 20))',
  },
  {
    name: 'crossunder',
    signature: 'crossunder(a, b)',
    summary: 'true on the bar where a - b turns negative and the last non-zero a - b before it was positive',
    example: 'crossunder(close, supertrend(10, 3))',
  },
  { name: 'time', signature: 'time()', summary: "the bar's closing time of day (IST), compared with \"HH:MM\"", example: 'time() >= "09:20"' },
  { name: 'abs', signature: 'abs(x)', summary: 'absolute value', example: 'abs(close - open) > 20' },
  { name: 'min', signature: 'min(a, b, ...)', summary: 'the smallest of two or more numbers', example: 'min(open, close) - low > 10' },
  { name: 'max', signature: 'max(a, b, ...)', summary: 'the largest of two or more numbers', example: 'high - max(open, close) > 10' },
  {
    name: 'highest',
    signature: 'highest(series, bars)',
    summary: 'the highest value of the series over the last `bars` bars, this one included',
    example: 'close > highest(high, 20)[1]',
  },
  {
    name: 'lowest',
    signature: 'lowest(series, bars)',
    summary: 'the lowest value of the series over the last `bars` bars, this one included',
    example: 'close < lowest(low, 20)[1]',
  },
];

const BY_NAME: ReadonlyMap<string, BuiltinFunction> = new Map(BUILTIN_FUNCTIONS.map((builtin) => [builtin.name, builtin]));

/** The built-in function called `name`, if there is one. */
export function builtinFunction(name: string): BuiltinFunction | undefined {
  return BY_NAME.get(name);
}

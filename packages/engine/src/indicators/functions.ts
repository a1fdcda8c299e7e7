import type { IndicatorFunction, IndicatorInput, IndicatorParameter } from './indicator';

// The expression language's indicator calls: each function reads one output of one indicator
// (factory.ts builds it from `indicator` and the parameter values, in this order).

function period(defaultValue?: number): IndicatorParameter {
  return integer('period', defaultValue);
}

function integer(name: string, defaultValue?: number, maximum = 1000): IndicatorParameter {
  return defaultValue === undefined ? { name, kind: 'integer', minimum: 1, maximum } : { name, kind: 'integer', minimum: 1, maximum, default: defaultValue };
}

function number(name: string, range: { readonly minimum: number; readonly maximum: number; readonly default: number }): IndicatorParameter {
  return { name, kind: 'number', minimum: range.minimum, maximum: range.maximum, default: range.default };
}

interface FunctionSpec {
  readonly indicator: string;
  readonly input: IndicatorInput;
  readonly parameters: readonly IndicatorParameter[];
  /** Function names in output order, each with its help line. */
  readonly outputs: readonly (readonly [name: string, summary: string])[];
}

const MACD_PARAMETERS = [integer('fast', 12), integer('slow', 26), integer('signal', 9)];
const STOCH_PARAMETERS = [period(14), integer('smooth', 3)];

const SPECS: readonly FunctionSpec[] = [
  { indicator: 'sma', input: 'series', parameters: [period()], outputs: [['sma', 'Simple moving average of the series over `period` bars']] },
  { indicator: 'ema', input: 'series', parameters: [period()], outputs: [['ema', 'Exponential moving average (alpha 2/(period+1), seeded with the SMA)']] },
  { indicator: 'wma', input: 'series', parameters: [period()], outputs: [['wma', 'Linearly weighted moving average (latest bar weighs `period`)']] },
  { indicator: 'rsi', input: 'series', parameters: [period()], outputs: [['rsi', "Relative strength index, Wilder's smoothing, 0..100"]] },
  {
    indicator: 'macd', input: 'series', parameters: MACD_PARAMETERS,
    outputs: [['macd', 'MACD line: EMA(fast) - EMA(slow)'], ['macd_signal', 'MACD signal line: EMA(signal) of the MACD line'], ['macd_hist', 'MACD histogram: line - signal']],
  },
  {
    indicator: 'bb', input: 'series', parameters: [period(20), number('deviations', { minimum: 0, maximum: 10, default: 2 })],
    outputs: [['bb_middle', 'Bollinger middle band: SMA(period)'], ['bb_upper', 'Bollinger upper band: SMA + deviations x population SD'], ['bb_lower', 'Bollinger lower band: SMA - deviations x population SD']],
  },
  { indicator: 'atr', input: 'bar', parameters: [period(14)], outputs: [['atr', "Average true range, Wilder's smoothing"]] },
  {
    indicator: 'supertrend', input: 'bar', parameters: [period(10), number('multiplier', { minimum: 0.1, maximum: 50, default: 3 })],
    outputs: [['supertrend', 'SuperTrend line (below price in an uptrend, above in a downtrend)'], ['supertrend_direction', 'SuperTrend direction: +1 up, -1 down']],
  },
  { indicator: 'vwap', input: 'bar', parameters: [], outputs: [['vwap', 'Volume-weighted average price of the IST session, reset each day']] },
  { indicator: 'stoch_k', input: 'bar', parameters: STOCH_PARAMETERS, outputs: [['stoch_k', 'Stochastic %K (raw %K smoothed over `smooth` bars), 0..100']] },
  { indicator: 'stoch', input: 'bar', parameters: [...STOCH_PARAMETERS, integer('signal', 3)], outputs: [['', ''], ['stoch_d', 'Stochastic %D: SMA(signal) of %K']] },
  {
    indicator: 'adx', input: 'bar', parameters: [period(14)],
    outputs: [['adx', 'Average directional index (Wilder), 0..100'], ['plus_di', '+DI, the positive directional indicator'], ['minus_di', '-DI, the negative directional indicator']],
  },
  { indicator: 'cci', input: 'bar', parameters: [period(20)], outputs: [['cci', 'Commodity channel index of the typical price']] },
  {
    indicator: 'donchian', input: 'bar', parameters: [period(20)],
    outputs: [['donchian_upper', 'Highest high of the last `period` bars'], ['donchian_lower', 'Lowest low of the last `period` bars'], ['donchian_middle', 'Midpoint of the Donchian channel']],
  },
  {
    indicator: 'pivot', input: 'bar', parameters: [],
    outputs: [
      ['pivot', "Floor pivot P = (H + L + C) / 3 of the previous IST day"], ['pivot_r1', 'Pivot resistance R1 = 2P - L'], ['pivot_r2', 'Pivot resistance R2 = P + (H - L)'],
      ['pivot_r3', 'Pivot resistance R3 = H + 2(P - L)'], ['pivot_s1', 'Pivot support S1 = 2P - H'], ['pivot_s2', 'Pivot support S2 = P - (H - L)'], ['pivot_s3', 'Pivot support S3 = L - 2(H - P)'],
    ],
  },
  {
    indicator: 'heikin_ashi', input: 'bar', parameters: [],
    outputs: [['ha_open', 'Heikin-Ashi open'], ['ha_high', 'Heikin-Ashi high'], ['ha_low', 'Heikin-Ashi low'], ['ha_close', 'Heikin-Ashi close: (O + H + L + C) / 4']],
  },
  { indicator: 'obv', input: 'bar', parameters: [], outputs: [['obv', 'On-balance volume']] },
  {
    indicator: 'prev_day', input: 'bar', parameters: [],
    outputs: [['prev_day_open', "Previous IST trading day's open"], ['prev_day_high', "Previous IST trading day's high"], ['prev_day_low', "Previous IST trading day's low"], ['prev_day_close', "Previous IST trading day's close"]],
  },
  {
    indicator: 'orb', input: 'bar', parameters: [integer('minutes', 15, 1440)],
    outputs: [['orb_high', 'Opening-range high: the first `minutes` minutes of the IST session'], ['orb_low', 'Opening-range low: the first `minutes` minutes of the IST session']],
  },
];

function expand(spec: FunctionSpec): IndicatorFunction[] {
  const functions: IndicatorFunction[] = [];
  spec.outputs.forEach(([name, summary], output) => {
    // An empty name marks an output read through another indicator (stoch's %K is `stoch_k`).
    if (name !== '') functions.push({ name, indicator: spec.indicator, output, input: spec.input, parameters: spec.parameters, summary });
  });
  return functions;
}

/** Every indicator function of the expression language, in help order. */
export const INDICATOR_FUNCTIONS: readonly IndicatorFunction[] = Object.freeze(SPECS.flatMap(expand));

const BY_NAME: ReadonlyMap<string, IndicatorFunction> = new Map(INDICATOR_FUNCTIONS.map((entry) => [entry.name, entry]));

/** The indicator function called `name`, or undefined. @example indicatorFunction('macd_signal')?.output // 1 */
export function indicatorFunction(name: string): IndicatorFunction | undefined {
  return BY_NAME.get(name);
}

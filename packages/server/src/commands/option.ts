// `vyuha option price` and `vyuha option iv`: the engine's option maths from the command line.
import {
  OptionInputError,
  black76ImpliedVolatility,
  black76PriceAndGreeks,
  blackScholesImpliedVolatility,
  blackScholesPriceAndGreeks,
  type ImpliedVolatilityResult,
  type OptionGreeks,
  type OptionType,
} from '@vyuha/engine';
import { UsageError, numberOption, parseOptions, print, type CliCommand } from './command';

type Model = 'bs' | 'black76';

const CONTRACT_OPTIONS = {
  type: { type: 'string' },
  spot: { type: 'string' },
  strike: { type: 'string' },
  rate: { type: 'string' },
  days: { type: 'string' },
  model: { type: 'string' },
  dividend: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const MODEL_HELP = `  --model bs|black76  bs (default): Black-Scholes on the spot with --dividend as a continuous
                      yield; black76: Black-76, where --spot is the future or forward price
  --days N            calendar days to expiry (fractions allowed); years = days / 365
  --rate R            continuous risk-free rate as a decimal (0.065 = 6.5%); a negative
                      value needs the --rate=-0.01 form
  --json              print JSON instead of a table`;

const PRICE_USAGE = `Usage: vyuha option price --type call|put --spot S --strike K --vol V --rate R --days N
                         [--model bs|black76] [--dividend Q] [--json]

Prints the option's price and greeks: delta, gamma, theta per calendar day, vega per volatility
point (0.01) and rho per 1% of rate.

${MODEL_HELP}
`;

const IV_USAGE = `Usage: vyuha option iv --price P --type call|put --spot S --strike K --rate R --days N
                      [--model bs|black76] [--dividend Q] [--json]

Prints the implied volatility of the price, or why none fits (exit code 1): a price below the
intrinsic value, above the upper bound, with no time value, or with too little vega.

${MODEL_HELP}
`;

/** Which command-line option an engine field came from, for error messages. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  spot: '--spot', forward: '--spot', strike: '--strike', years: '--days', vol: '--vol', rate: '--rate', dividendYield: '--dividend', price: '--price', type: '--type',
};

interface Contract {
  readonly model: Model;
  readonly type: OptionType;
  readonly spot: number;
  readonly strike: number;
  readonly rate: number;
  readonly days: number;
  readonly dividendYield: number;
  readonly json: boolean;
}

function readContract(values: Record<string, unknown>): Contract {
  const type = values.type;
  if (type !== 'call' && type !== 'put') throw new UsageError(`--type must be call or put, got ${type === undefined ? 'nothing' : `"${String(type)}"`}`);
  const model = values.model ?? 'bs';
  if (model !== 'bs' && model !== 'black76') throw new UsageError(`--model must be bs or black76, got "${String(model)}"`);
  const dividendYield = values.dividend === undefined ? 0 : numberOption(values, 'dividend');
  if (model === 'black76' && values.dividend !== undefined) throw new UsageError('--dividend applies only to --model bs (a forward already carries the dividends)');
  return {
    model,
    type,
    spot: positive(values, 'spot'),
    strike: positive(values, 'strike'),
    rate: numberOption(values, 'rate'),
    days: nonNegative(values, 'days'),
    dividendYield,
    json: values.json === true,
  };
}

function positive(values: Record<string, unknown>, name: string): number {
  const value = numberOption(values, name);
  if (!(value > 0)) throw new UsageError(`--${name} must be greater than 0, got ${value}`);
  return value;
}

function nonNegative(values: Record<string, unknown>, name: string): number {
  const value = numberOption(values, name);
  if (!(value >= 0)) throw new UsageError(`--${name} must be 0 or more, got ${value}`);
  return value;
}

/** Turns an engine input error into a usage error that names the command-line option. */
function asUsageError<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof OptionInputError) {
      const option = OPTION_OF_FIELD[error.field] ?? error.field;
      throw new UsageError(`${option}: ${error.message.slice(error.field.length + 1)}`);
    }
    throw error;
  }
}

function priceAndGreeks(contract: Contract, vol: number): OptionGreeks {
  const years = contract.days / 365;
  const common = { strike: contract.strike, years, vol, rate: contract.rate, type: contract.type };
  return contract.model === 'black76'
    ? black76PriceAndGreeks({ ...common, forward: contract.spot })
    : blackScholesPriceAndGreeks({ ...common, spot: contract.spot, dividendYield: contract.dividendYield });
}

function describeContract(contract: Contract): string {
  const model = contract.model === 'black76' ? `Black-76, forward ${contract.spot}` : `Black-Scholes, spot ${contract.spot}`;
  const dividend = contract.dividendYield === 0 ? '' : `, dividend yield ${contract.dividendYield}`;
  return `${contract.type} ${contract.strike}, ${model}, ${contract.days} days, rate ${contract.rate}${dividend}`;
}

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${label.padEnd(width)}${value}`).join('\n');
}

/** Six significant digits: enough for a greek, no false precision. */
function figure(value: number): string {
  return Number(value.toPrecision(6)).toString();
}

async function runPrice(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, { ...CONTRACT_OPTIONS, vol: { type: 'string' } });
  const contract = readContract(values);
  const vol = nonNegative(values, 'vol');
  const greeks = asUsageError(() => priceAndGreeks(contract, vol));
  if (contract.json) {
    print(JSON.stringify({ model: contract.model, type: contract.type, spot: contract.spot, strike: contract.strike, vol, rate: contract.rate, days: contract.days, dividendYield: contract.dividendYield, ...greeks }));
    return 0;
  }
  print(table([
    ['Option', describeContract(contract)],
    ['Volatility', `${figure(vol * 100)}%`],
    ['Price', figure(greeks.price)],
    ['Delta', figure(greeks.delta)],
    ['Gamma', figure(greeks.gamma)],
    ['Theta/day', figure(greeks.theta)],
    ['Vega/1 vol pt', figure(greeks.vega)],
    ['Rho/1%', figure(greeks.rho)],
  ]));
  return 0;
}

function solve(contract: Contract, price: number): ImpliedVolatilityResult {
  const years = contract.days / 365;
  const common = { price, strike: contract.strike, years, rate: contract.rate, type: contract.type };
  return contract.model === 'black76'
    ? black76ImpliedVolatility({ ...common, forward: contract.spot })
    : blackScholesImpliedVolatility({ ...common, spot: contract.spot, dividendYield: contract.dividendYield });
}

async function runImpliedVolatility(args: readonly string[]): Promise<number> {
  const { values } = parseOptions(args, { ...CONTRACT_OPTIONS, price: { type: 'string' } });
  const contract = readContract(values);
  const price = nonNegative(values, 'price');
  const result = asUsageError(() => solve(contract, price));
  if (contract.json) {
    print(JSON.stringify(result));
    return result.ok ? 0 : 1;
  }
  if (!result.ok) {
    process.stderr.write(`No implied volatility fits (${result.reason}): ${result.message}\n`);
    return 1;
  }
  print(table([
    ['Option', describeContract(contract)],
    ['Price', String(price)],
    ['Implied volatility', `${(result.vol * 100).toFixed(4)}% (${figure(result.vol)})`],
    ['Iterations', String(result.iterations)],
  ]));
  return 0;
}

export const optionPriceCommand: CliCommand = { name: 'option price', usage: PRICE_USAGE, run: runPrice };

export const optionImpliedVolatilityCommand: CliCommand = { name: 'option iv', usage: IV_USAGE, run: runImpliedVolatility };

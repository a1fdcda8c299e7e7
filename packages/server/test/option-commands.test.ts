import { afterEach, describe, expect, it, vi } from 'vitest';
import { blackScholesPrice, black76Price } from '@vyuha/engine';
import { UsageError } from '../src/commands/command';
import { optionImpliedVolatilityCommand, optionPriceCommand } from '../src/commands/option';
import { runCommand, type CommandRun } from './helpers/run-command';

/** Runs a command and collects what it wrote to stdout and stderr. */
const run = (command: typeof optionPriceCommand, args: string[]): Promise<CommandRun> => runCommand(command, args);

afterEach(() => vi.restoreAllMocks());

const HULL = ['--spot', '42', '--strike', '40', '--rate', '0.1', '--days', String(0.5 * 365)];

describe('vyuha option price', () => {
  it("prints Hull's call as a table: price 4.75942 and the greeks", async () => {
    const { code, stdout } = await run(optionPriceCommand, ['--type', 'call', ...HULL, '--vol', '0.2']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Price\s+4\.75942/);
    expect(stdout).toMatch(/Delta\s+0\.779131/);
    expect(stdout).toMatch(/Theta\/day\s+-0\.0124907/);
    expect(stdout).toContain('Black-Scholes, spot 42');
  });

  it('prints JSON with --json, and Black-76 treats --spot as the forward', async () => {
    const { code, stdout } = await run(optionPriceCommand, ['--type', 'put', '--spot', '20', '--strike', '20', '--rate', '0.09', '--days', String(365 / 3), '--vol', '0.25', '--model', 'black76', '--json']);
    expect(code).toBe(0);
    const output = JSON.parse(stdout) as { price: number; model: string; vega: number };
    expect(output.model).toBe('black76');
    expect(output.price).toBeCloseTo(black76Price({ forward: 20, strike: 20, years: 1 / 3, vol: 0.25, rate: 0.09, type: 'put' }), 12);
    expect(output.vega).toBeGreaterThan(0);
  });

  it('rejects bad numbers with a UsageError naming the option', async () => {
    await expect(run(optionPriceCommand, ['--type', 'call', ...HULL, '--vol', 'twenty'])).rejects.toThrow(/--vol must be a number, got "twenty"/);
    await expect(run(optionPriceCommand, ['--type', 'call', ...HULL, '--vol', '-0.2'])).rejects.toThrow(UsageError);
    // A negative value needs the --name=value form; parseArgs refuses `--spot -42` as ambiguous.
    await expect(run(optionPriceCommand, ['--type', 'call', '--spot=-42', ...HULL.slice(2), '--vol', '0.2'])).rejects.toThrow(/--spot must be greater than 0, got -42/);
    await expect(run(optionPriceCommand, ['--type', 'call', '--spot', '-42', ...HULL.slice(2), '--vol', '0.2'])).rejects.toThrow(/'--spot' argument is ambiguous/);
    await expect(run(optionPriceCommand, ['--type', 'straddle', ...HULL, '--vol', '0.2'])).rejects.toThrow(/--type must be call or put/);
    await expect(run(optionPriceCommand, ['--type', 'call', ...HULL, '--vol', '0.2', '--model', 'black76', '--dividend', '0.01'])).rejects.toThrow(/--dividend applies only to --model bs/);
    await expect(run(optionPriceCommand, ['--type', 'call', ...HULL])).rejects.toThrow(/--vol is required/);
  });
});

describe('vyuha option iv', () => {
  it('recovers 20% from the price of a dividend-paying call', async () => {
    const price = blackScholesPrice({ spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1, dividendYield: 0.02, type: 'call' });
    const { code, stdout } = await run(optionImpliedVolatilityCommand, ['--type', 'call', ...HULL, '--dividend', '0.02', '--price', String(price)]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Implied volatility\s+20\.0000% \(0\.2\)/);
  });

  it('says why no volatility fits and exits 1: below intrinsic', async () => {
    const { code, stderr } = await run(optionImpliedVolatilityCommand, ['--type', 'call', ...HULL, '--price', '1']);
    expect(code).toBe(1);
    expect(stderr).toContain('No implied volatility fits (below-intrinsic)');
  });

  it('prints the reason as JSON with --json, also with exit code 1', async () => {
    const { code, stdout } = await run(optionImpliedVolatilityCommand, ['--type', 'put', ...HULL, '--price', '45', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, reason: 'above-maximum' });
  });

  it('rejects a negative price naming --price', async () => {
    await expect(run(optionImpliedVolatilityCommand, ['--type', 'call', ...HULL, '--price=-3'])).rejects.toThrow(/--price must be 0 or more/);
  });
});

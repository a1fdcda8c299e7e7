import { formatRupees } from '@vyuha/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chargesCommand } from '../src/commands/charges';
import { UsageError } from '../src/commands/command';
import { runCommand } from './helpers/run-command';

const BASE = ['--exchange', 'NSE', '--instrument', 'option', '--side', 'sell', '--premium', '120.5', '--quantity', '75', '--date', '2024-10-15'];

async function run(args: readonly string[]): Promise<{ code: number; output: string }> {
  const { code, stdout } = await runCommand(chargesCommand, args);
  return { code, output: stdout };
}

/** Replaces the value after `--name` (or appends `--name value`). */
function withOption(name: string, value: string): string[] {
  const args = [...BASE];
  const index = args.indexOf(`--${name}`);
  if (index === -1) args.push(`--${name}`, value);
  else args[index + 1] = value;
  return args;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('vyuha charges', () => {
  it('prints each component and the total in rupees', async () => {
    // 120.50 x 75 = Rs 9,037.50; STT 0.1% = Rs 9.0375 -> Rs 9; exchange 0.03503% = 316.58 p -> Rs 3.17;
    // IPF 4.52 p -> Rs 0.05; SEBI 0.90 p -> Rs 0.01; GST 18% of (2000 + 317 + 1) p = 417.24 -> Rs 4.17;
    // total 20 + 9 + 3.17 + 0.05 + 0.01 + 4.17 = Rs 36.40
    const { code, output } = await run(BASE);
    expect(code).toBe(0);
    expect(output).toContain('Turnover ₹9,037.50');
    expect(output).toMatch(/Brokerage\s+₹20\.00/);
    expect(output).toMatch(/STT\s+₹9\.00\s+0\.1% of value/);
    expect(output).toMatch(/Exchange transaction charge\s+₹3\.17\s+0\.03503%/);
    expect(output).toMatch(/Investor protection fund\s+₹0\.05/);
    expect(output).toMatch(/SEBI turnover fee\s+₹0\.01/);
    expect(output).toMatch(/Stamp duty\s+₹0\.00/);
    expect(output).toMatch(/GST\s+₹4\.17/);
    expect(output).toMatch(/Total\s+₹36\.40/);
  });

  it('prints JSON with paise integers and rupee strings', async () => {
    const { output } = await run([...BASE, '--json']);
    const report = JSON.parse(output) as { components: Record<string, { paise: number; rupees: string }>; total: { paise: number; rupees: string }; turnover: { paise: number } };
    expect(report.components.stt).toEqual({ paise: 900, rupees: '9.00' });
    expect(report.components.gst).toEqual({ paise: 417, rupees: '4.17' });
    expect(report.total).toEqual({ paise: 3640, rupees: '36.40' });
    expect(report.turnover.paise).toBe(903_750);
  });

  it('takes a flat brokerage in rupees, or a percentage capped by it', async () => {
    // flat Rs 0: GST 18% of (0 + 317 + 1) = 57.24 p -> Rs 0.57; total 0 + 9 + 3.17 + 0.05 + 0.01 + 0.57 = Rs 12.80
    expect((await run(withOption('brokerage', '0'))).output).toMatch(/Total\s+₹12\.80/);
    // 0.03% of Rs 9,037.50 = Rs 2.71125 -> Rs 2.71 < Rs 20
    expect((await run([...BASE, '--brokerage-percent', '0.03'])).output).toMatch(/Brokerage\s+₹2\.71\s+0\.03% up to ₹20\.00 per order/);
  });

  it('prices an exercised long option on its settlement price', async () => {
    // 187.35 x 65 = Rs 12,177.75; STT 0.15% = Rs 18.27 -> Rs 18; GST 18% of Rs 20 = Rs 3.60; total Rs 41.60
    const args = ['--exchange', 'NSE', '--instrument', 'option', '--side', 'sell', '--event', 'exercise', '--settlement', '187.35', '--quantity', '65', '--date', '2026-05-26'];
    const { output } = await run(args);
    expect(output).toMatch(/STT\s+₹18\.00\s+0\.15% of exercise value/);
    expect(output).toMatch(/Total\s+₹41\.60/);
  });

  it.each([
    ['premium', '120.555', /--premium must be rupees with at most 2 decimals/],
    ['premium', '0', /--premium must be above 0/],
    ['quantity', '0', /--quantity must be a whole number of units above 0/],
    ['quantity', '7.5', /--quantity must be a whole number/],
    ['exchange', 'MCX', /--exchange must be one of NSE, NFO, BSE, BFO/],
    ['instrument', 'swap', /--instrument must be one of option, future/],
    ['side', 'short', /--side must be one of buy, sell/],
    ['date', '2024-13-01', /--date must be a calendar date/],
    ['date', '2019-06-01', /--date must be on or after 2020-01-01/],
    ['brokerage', '20.001', /--brokerage must be rupees with at most 2 decimals/],
    ['brokerage-percent', '1e-9', /--brokerage-percent must be a percentage/],
    ['event', 'exercise', /--settlement is required/],
  ])('refuses --%s %s with a UsageError naming it', async (name, value, message) => {
    await expect(run(withOption(name, value))).rejects.toThrow(UsageError);
    await expect(run(withOption(name, value))).rejects.toThrow(message);
  });

  it('refuses a negative quantity written as --quantity=-75', async () => {
    const args = [...BASE.slice(0, 8), '--quantity=-75', ...BASE.slice(10)];
    await expect(run(args)).rejects.toThrow(/--quantity must be a whole number of units above 0, got "-75"/);
  });

  it('refuses a missing required option', async () => {
    await expect(run(BASE.slice(2))).rejects.toThrow(/--exchange is required/);
  });
});

describe('formatRupees (core\'s, as the charges report writes amounts)', () => {
  it('groups in lakhs and crores with two decimals', () => {
    expect(formatRupees(0)).toBe('₹0.00');
    expect(formatRupees(5)).toBe('₹0.05');
    expect(formatRupees(2_000)).toBe('₹20.00');
    expect(formatRupees(12_345_678)).toBe('₹1,23,456.78');
    expect(formatRupees(15_932_995_000)).toBe('₹15,93,29,950.00');
    expect(formatRupees(-99_999)).toBe('-₹999.99');
  });
});

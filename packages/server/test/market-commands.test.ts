import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../src/commands/command';
import { marketExpiriesCommand, marketHolidaysCommand } from '../src/commands/market';

function captureStdout(): { text: () => string } {
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return { text: () => spy.mock.calls.map((call) => String(call[0])).join('') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('vyuha market expiries', () => {
  it('prints one line per expiry of Q1-2024 NIFTY', async () => {
    const stdout = captureStdout();
    expect(await marketExpiriesCommand.run(['--symbol', 'NIFTY', '--from', '2024-01-01', '--to', '2024-03-31'])).toBe(0);
    const lines = stdout.text().trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines.slice(0, 4)).toEqual(['2024-01-04 weekly', '2024-01-11 weekly', '2024-01-18 weekly', '2024-01-25 monthly']);
    expect(lines.at(-1)).toBe('2024-03-28 monthly');
  });

  it('prints the holiday-shifted weekly of April 2024', async () => {
    const stdout = captureStdout();
    await marketExpiriesCommand.run(['--symbol', 'NIFTY', '--from', '2024-04-08', '--to', '2024-04-12']);
    expect(stdout.text()).toBe('2024-04-10 weekly\n');
  });

  it.each([
    [['--symbol', 'NIFTYY', '--from', '2024-01-01', '--to', '2024-03-31'], '--symbol must be one of NIFTY, BANKNIFTY'],
    [['--symbol', 'NIFTY', '--from', '2024-02-30', '--to', '2024-03-31'], '--from must be a date as YYYY-MM-DD, got "2024-02-30"'],
    [['--symbol', 'NIFTY', '--from', '2024-01-01', '--to', '31-03-2024'], '--to must be a date'],
    [['--symbol', 'NIFTY', '--from', '2024-03-01', '--to', '2024-01-01'], '--to (2024-01-01) is before --from (2024-03-01)'],
    [['--symbol', 'NIFTY', '--from', '2019-01-01', '--to', '2024-01-01'], '--from must be within 2020-01-01..2027-12-31'],
    [['--from', '2024-01-01', '--to', '2024-03-31'], '--symbol is required'],
    [['--symbol', 'NIFTY', '--from', '2024-01-01', '--to', '2024-03-31', '--kind', 'weekly'], "Unknown option '--kind'"],
  ])('refuses %j with a usage error naming the option', async (args, message) => {
    const run = marketExpiriesCommand.run(args);
    await expect(run).rejects.toThrow(UsageError);
    await expect(marketExpiriesCommand.run(args)).rejects.toThrow(message);
  });
});

describe('vyuha market holidays', () => {
  it('prints the NSE holidays of 2024 with their events', async () => {
    const stdout = captureStdout();
    expect(await marketHolidaysCommand.run(['--exchange', 'NSE', '--year', '2024'])).toBe(0);
    const lines = stdout.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^2024-01-22 Special holiday/);
    expect(lines).toContain('2024-04-11 Id-Ul-Fitr (Ramzan Id)');
    expect(lines.every((line) => /^2024-\d{2}-\d{2} \S/.test(line))).toBe(true);
    expect(lines.map((line) => line.slice(0, 10))).toEqual([...lines.map((line) => line.slice(0, 10))].sort());
  });

  it.each([
    [['--exchange', 'NYSE', '--year', '2024'], '--exchange must be one of NSE, NFO'],
    [['--exchange', 'NSE', '--year', '24'], '--year must be a year from 2020 to 2026'],
    [['--exchange', 'NSE', '--year', '2030'], 'got "2030"'],
    [['--year', '2024'], '--exchange is required'],
  ])('refuses %j with a usage error naming the option', async (args, message) => {
    await expect(marketHolidaysCommand.run(args)).rejects.toThrow(UsageError);
    await expect(marketHolidaysCommand.run(args)).rejects.toThrow(message);
  });
});

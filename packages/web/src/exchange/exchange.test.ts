// The exchange setting's derivations: the selected row and its default, the choices, market hours,
// the cross-tab refresh rule, and /payoff's menu entry following the NSE rule.
import { describe, expect, it } from 'vitest';
import { visibleMenu } from '../app/menu';
import {
  DEFAULT_EXCHANGE_ROW, currencyText, exchangesOfTz, marketHoursText, selectedExchange,
  settingForExchange, settingForTz, tzChoices, zoneOfTz, type ExchangeRow,
} from './exchange';
import { exchangeRefreshFor, parseTimeZone } from './time-zone-share';

const row = (exchange: string, extra: Partial<ExchangeRow> = {}): ExchangeRow => ({
  exchange, tz: 'Asia/Kolkata', market_open: '09:15:00', market_close: '15:30:00', currency: 'INR', locale: 'en-IN', symbol: '₹', zone: 'IN', ...extra,
});
const NSE = row('NSE');
const BSE = row('BSE');
const CDS = row('CDS', { market_open: '09:00:00', market_close: '17:00:00' });
const XCBO = row('XCBO', { tz: 'America/Chicago', market_open: '08:30:00', market_close: '15:00:00', currency: 'USD', locale: 'en-US', symbol: '$', zone: 'US' });
const ALL = [BSE, CDS, NSE, XCBO];

describe('the selected exchange', () => {
  it('is the home market NSE in IST before any row loads or without a setting', () => {
    expect(selectedExchange([], undefined)).toEqual(DEFAULT_EXCHANGE_ROW);
    expect(selectedExchange([], { exchange: 'BSE', tz: 'Asia/Kolkata' })).toEqual(DEFAULT_EXCHANGE_ROW);
    expect(marketHoursText(DEFAULT_EXCHANGE_ROW)).toBe('NSE 09:15–15:30 Asia/Kolkata');
    expect(currencyText(DEFAULT_EXCHANGE_ROW)).toBe('₹ INR');
  });

  it('is the named row, else NSE of the loaded rows, else the first', () => {
    expect(selectedExchange(ALL, { exchange: 'CDS', tz: 'Asia/Kolkata' })).toBe(CDS);
    expect(selectedExchange(ALL, { exchange: 'NOPE', tz: 'Asia/Kolkata' })).toBe(NSE);
    expect(selectedExchange([XCBO], { exchange: 'NOPE', tz: 'America/Chicago' })).toBe(XCBO);
  });

  it('shows each exchange its own hours and currency', () => {
    expect(marketHoursText(CDS)).toBe('CDS 09:00–17:00 Asia/Kolkata');
    expect(marketHoursText(XCBO)).toBe('XCBO 08:30–15:00 America/Chicago');
    expect(currencyText(XCBO)).toBe('$ USD');
  });
});

describe('the preference choices', () => {
  it('offer the time zones of the rows and each zone its own exchanges', () => {
    expect(tzChoices(ALL)).toEqual(['Asia/Kolkata', 'America/Chicago']);
    expect(exchangesOfTz(ALL, 'America/Chicago').map((item) => item.exchange)).toEqual(['XCBO']);
    expect(exchangesOfTz(ALL, 'Asia/Kolkata').map((item) => item.exchange)).toEqual(['BSE', 'CDS', 'NSE']);
  });

  it('give a picked exchange its own tz', () => {
    expect(settingForExchange(ALL, 'XCBO')).toEqual({ exchange: 'XCBO', tz: 'America/Chicago' });
    expect(settingForExchange(ALL, 'BSE')).toEqual({ exchange: 'BSE', tz: 'Asia/Kolkata' });
    expect(settingForExchange(ALL, 'LSE')).toBeUndefined();
  });

  it('keep the exchange when the time zone has it, else take NSE or the first', () => {
    expect(settingForTz(ALL, 'Asia/Kolkata', { exchange: 'BSE', tz: 'Asia/Kolkata' })).toEqual({ exchange: 'BSE', tz: 'Asia/Kolkata' });
    expect(settingForTz(ALL, 'America/Chicago', { exchange: 'BSE', tz: 'Asia/Kolkata' })).toEqual({ exchange: 'XCBO', tz: 'America/Chicago' });
    expect(settingForTz(ALL, 'Asia/Kolkata', { exchange: 'XCBO', tz: 'America/Chicago' })).toEqual({ exchange: 'NSE', tz: 'Asia/Kolkata' });
    expect(settingForTz(ALL, 'Europe/London', undefined)).toBeUndefined();
  });

  it('map a tz to the zone the session loads', () => {
    expect(zoneOfTz('America/Chicago')).toBe('US');
    expect(zoneOfTz('Asia/Kolkata')).toBe('IN');
    expect(zoneOfTz(undefined)).toBe('IN');
  });
});

describe('the exchange-refresh rule (another tab)', () => {
  const nse = JSON.stringify({ exchange: 'NSE', tz: 'Asia/Kolkata' });
  const bse = JSON.stringify({ exchange: 'BSE', tz: 'Asia/Kolkata' });

  it('opens when both old and new are non-empty and differ', () => {
    expect(exchangeRefreshFor(nse, bse, { exchange: 'NSE', tz: 'Asia/Kolkata' })).toEqual({ exchange: 'BSE', tz: 'Asia/Kolkata' });
    expect(exchangeRefreshFor(nse, JSON.stringify({ exchange: 'NSE', tz: 'Asia/Calcutta' }), undefined)).toEqual({ exchange: 'NSE', tz: 'Asia/Calcutta' });
  });

  it('stays shut for an empty side, the same value, or a value this tab already shows', () => {
    expect(exchangeRefreshFor(null, bse, undefined)).toBeUndefined();
    expect(exchangeRefreshFor(nse, null, undefined)).toBeUndefined();
    expect(exchangeRefreshFor(JSON.stringify({ exchange: '', tz: 'Asia/Kolkata' }), bse, undefined)).toBeUndefined();
    expect(exchangeRefreshFor(nse, nse, undefined)).toBeUndefined();
    expect(exchangeRefreshFor(nse, bse, { exchange: 'BSE', tz: 'Asia/Kolkata' })).toBeUndefined();
    expect(exchangeRefreshFor('not json', bse, undefined)).toBeUndefined();
  });

  it('reads only objects with both fields as text', () => {
    expect(parseTimeZone(bse)).toEqual({ exchange: 'BSE', tz: 'Asia/Kolkata' });
    expect(parseTimeZone('{"exchange":"BSE"}')).toBeUndefined();
    expect(parseTimeZone('null')).toBeUndefined();
  });
});

describe("/payoff's menu entry", () => {
  const paths = (exchange: string | undefined): string[] => visibleMenu({ role: 'advanced', exchange, actingForUser: false }).map((entry) => entry.path);

  it('shows only while the exchange is NSE', () => {
    expect(paths('NSE')).toContain('/payoff');
    expect(paths('BSE')).not.toContain('/payoff');
    expect(paths('XCBO')).not.toContain('/payoff');
    expect(paths(undefined)).not.toContain('/payoff');
  });
});

import { describe, expect, it } from 'vitest';
import { configValueText, fieldLabel, isPaiseField } from './config-text';

describe('configValueText', () => {
  it('shows paise fields as rupees and other numbers as they are', () => {
    expect(configValueText('investment', 20_000_000)).toBe('₹2,00,000.00');
    expect(configValueText('dailyMaxLoss', 150_050)).toBe('₹1,500.50');
    expect(configValueText('price_paise', 2_450)).toBe('₹24.50');
    expect(configValueText('interval', 5)).toBe('5');
  });

  it('reads exit distances, sizing, flags and the algorithm in words', () => {
    expect(configValueText('stopLoss', { kind: 'percent', percent: 1.5 })).toBe('1.5 %');
    expect(configValueText('target', { kind: 'points', points: 40 })).toBe('40 points');
    expect(configValueText('sizing', { kind: 'lots', lots: 2, lotSize: 75 })).toBe('2 lots of 75');
    expect(configValueText('sizing', { kind: 'quantity', quantity: 10 })).toBe('10 units an entry');
    expect(configValueText('sizing', { kind: 'all-in' })).toMatch(/^All-in/);
    expect(configValueText('manual', false)).toBe('No');
    expect(configValueText('algorithm', { id: 'a1', version: 3 })).toBe('version 3 of a1');
    expect(configValueText('legs', null)).toBe('—');
  });

  it('leaves shapes it does not know to the caller', () => {
    expect(configValueText('stopLoss', { kind: 'atr', multiple: 2 })).toBeUndefined();
    expect(configValueText('sizing', { kind: 'lots', lots: 2 })).toBeUndefined();
    expect(configValueText('members', [1, 2])).toBeUndefined();
  });
});

describe('fieldLabel', () => {
  it('drops the paise unit from the label', () => {
    expect(fieldLabel('trigger_price_paise')).toBe('Trigger price');
    expect(fieldLabel('dailyMaxLoss')).toBe('Daily max loss');
    expect(isPaiseField('chargesPaise')).toBe(true);
    expect(isPaiseField('lots')).toBe(false);
  });
});

// Field checks of the backtest config, each pushing `{ field, message }` for what is wrong.
import type { ChargesConfig } from '../kernel/charges-model';
import type { ExitDistance } from '../kernel/protective-levels';
import type { Sizing } from '../kernel/sizing';
import type { SlippageModel } from '../kernel/slippage';

export type IssueSink = Array<{ readonly field: string; readonly message: string }>;

/** Reads a field of something that may not be an object. */
function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

export function oneOf(sink: IssueSink, field: string, choice: { value: unknown; allowed: readonly string[] }): boolean {
  const { value, allowed } = choice;
  if (typeof value === 'string' && allowed.includes(value)) return true;
  sink.push({ field, message: `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}` });
  return false;
}

export function positivePaise(sink: IssueSink, field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    sink.push({ field, message: `must be a whole number of paise above 0, got ${JSON.stringify(value)}` });
  }
}

function positiveWhole(sink: IssueSink, field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    sink.push({ field, message: `must be a whole number above 0, got ${JSON.stringify(value)}` });
  }
}

function percentIn(sink: IssueSink, field: string, bounds: { value: unknown; above: number; atMost: number }): void {
  const { value } = bounds;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= bounds.above || value > bounds.atMost) {
    sink.push({ field, message: `must be a percentage above ${bounds.above} and at most ${bounds.atMost}, got ${JSON.stringify(value)}` });
  }
}

export function checkSizing(sink: IssueSink, sizing: Sizing): void {
  const kind = fieldOf(sizing, 'kind');
  if (!oneOf(sink, 'sizing.kind', { value: kind, allowed: ['quantity', 'lots', 'percent', 'all-in'] })) return;
  if (kind === 'quantity') positiveWhole(sink, 'sizing.quantity', fieldOf(sizing, 'quantity'));
  if (kind === 'lots') {
    positiveWhole(sink, 'sizing.lots', fieldOf(sizing, 'lots'));
    if (fieldOf(sizing, 'lotSize') === undefined) sink.push({ field: 'sizing.lotSize', message: 'is required for lots sizing (units per lot)' });
    else positiveWhole(sink, 'sizing.lotSize', fieldOf(sizing, 'lotSize'));
  }
  // Above 100% would be leverage, which is not modelled.
  if (kind === 'percent') percentIn(sink, 'sizing.percent', { value: fieldOf(sizing, 'percent'), above: 0, atMost: 100 });
}

export function checkSlippage(sink: IssueSink, slippage: SlippageModel): void {
  const kind = fieldOf(slippage, 'kind');
  if (!oneOf(sink, 'slippage.kind', { value: kind, allowed: ['none', 'ticks', 'percent'] })) return;
  const ticks = fieldOf(slippage, 'ticks');
  if (kind === 'ticks' && (typeof ticks !== 'number' || !Number.isSafeInteger(ticks) || ticks < 0)) {
    sink.push({ field: 'slippage.ticks', message: `must be a whole number of ticks >= 0, got ${JSON.stringify(ticks)}` });
  }
  const percent = fieldOf(slippage, 'percent');
  if (kind === 'percent' && (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent >= 100)) {
    sink.push({ field: 'slippage.percent', message: `must be a percentage from 0 to below 100, got ${JSON.stringify(percent)}` });
  }
}

export function checkCharges(sink: IssueSink, charges: ChargesConfig): void {
  const kind = fieldOf(charges, 'kind');
  if (!oneOf(sink, 'charges.kind', { value: kind, allowed: ['none', 'schedule'] }) || kind === 'none') return;
  const exchange = fieldOf(charges, 'exchange');
  const instrument = fieldOf(charges, 'instrument');
  oneOf(sink, 'charges.exchange', { value: exchange, allowed: ['NSE', 'BSE'] });
  oneOf(sink, 'charges.instrument', { value: instrument, allowed: ['option', 'future', 'equity-intraday', 'equity-delivery'] });
  if ((instrument === 'equity-intraday' || instrument === 'equity-delivery') && exchange === 'BSE') {
    sink.push({ field: 'charges.exchange', message: `${instrument} charges are scheduled for NSE only` });
  }
}

export function checkExitDistance(sink: IssueSink, field: string, distance: ExitDistance): void {
  const kind = fieldOf(distance, 'kind');
  if (!oneOf(sink, `${field}.kind`, { value: kind, allowed: ['percent', 'points'] })) return;
  // A target may lie several times the price away; a stop of 100% or more could never trigger on a long.
  const atMost = field === 'target' ? 10_000 : 100;
  if (kind === 'percent') percentIn(sink, `${field}.percent`, { value: fieldOf(distance, 'percent'), above: 0, atMost });
  const points = fieldOf(distance, 'points');
  if (kind === 'points' && (typeof points !== 'number' || !Number.isFinite(points) || points <= 0)) {
    sink.push({ field: `${field}.points`, message: `must be a number of points above 0, got ${JSON.stringify(points)}` });
  }
}

#!/usr/bin/env node
// The CLI benchmark's reference: a hand-written, single-loop Node program with no Vyuha imports
// that reads a candle CSV (datetime,open,high,low,close,volume; IST times) and backtests the
// SMA(10)/SMA(20) crossover exactly as `vyuha backtest --type swing --sizing qty:1 --fill
// next-open --charges none` does: long-only, BUY when SMA10 crosses above SMA20 (the last non-zero
// difference was negative), exit when it crosses below, market orders at the next bar's open,
// anything open sold at the last bar's close. Writes the fills as the CLI's --trades CSV.
//
// Usage: node sma-crossover.mjs DATA.csv OUT.csv
import { readFileSync, writeFileSync } from 'node:fs';

const IST_MS = 19_800_000;
const [, , input, output] = process.argv;
if (!input || !output) {
  process.stderr.write('usage: node sma-crossover.mjs DATA.csv OUT.csv\n');
  process.exit(2);
}

function toPaise(text) {
  const dot = text.indexOf('.');
  if (dot === -1) return Number(text) * 100;
  const decimals = (text.slice(dot + 1) + '00').slice(0, 2);
  return Number(text.slice(0, dot)) * 100 + (text[0] === '-' ? -1 : 1) * Number(decimals);
}

function epochOf(text) {
  // YYYY-MM-DD HH:mm[:ss] in IST
  const ms = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)), Number(text.slice(11, 13)), Number(text.slice(14, 16)), text.length > 16 ? Number(text.slice(17, 19)) : 0);
  return ms - IST_MS;
}

function formatTime(ms) {
  return new Date(ms + IST_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function rupees(paise) {
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
}

const text = readFileSync(input, 'utf8');
const fills = ['time,side,quantity,price,charges,reason'];
let start = text.indexOf('\n') + 1;
let fastSum = 0;
let slowSum = 0;
let last = 0;
let position = 0;
let pending = 0; // +1 buy at the next open, -1 sell at the next open
const closes = [];
let index = 0;
let previousTime = 0;
while (start < text.length) {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  const line = text.slice(start, end).trim();
  start = end + 1;
  if (line === '') continue;
  const cells = line.split(',');
  const time = epochOf(cells[0]);
  const open = toPaise(cells[1]);
  const close = toPaise(cells[4]);
  // Orders from the previous close fill at this open.
  if (pending === 1) { position = 1; fills.push(`${formatTime(time)},BUY,1,${rupees(open)},0.00,entry`); }
  if (pending === -1) { position = 0; fills.push(`${formatTime(time)},SELL,1,${rupees(open)},0.00,signal`); }
  pending = 0;
  closes.push(close);
  fastSum += close;
  slowSum += close;
  if (index >= 10) fastSum -= closes[index - 10];
  if (index >= 20) slowSum -= closes[index - 20];
  if (index >= 19) {
    const difference = fastSum * 20 - slowSum * 10;
    if (difference > 0 && last < 0 && position === 0) pending = 1;
    else if (difference < 0 && last > 0 && position === 1) pending = -1;
    if (difference !== 0) last = difference;
  }
  previousTime = time;
  index += 1;
}
// End of data: orders still waiting are dropped; a long is sold at the last close, at the end
// of the last bar (one minute after its start, but never after 15:30 IST).
if (position === 1) {
  const sessionEnd = Math.floor((previousTime + IST_MS) / 86_400_000) * 86_400_000 - IST_MS + 930 * 60_000;
  fills.push(`${formatTime(Math.min(previousTime + 60_000, sessionEnd))},SELL,1,${rupees(closes[index - 1])},0.00,end-of-data`);
}
writeFileSync(output, `${fills.join('\n')}\n`);
process.stdout.write(`${index} bars, ${(fills.length - 1) / 2} trades, last bar ${formatTime(previousTime)}\n`);

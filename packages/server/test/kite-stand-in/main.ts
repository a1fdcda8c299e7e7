// A Kite stand-in for a local demo: one account, NIFTY and BANKNIFTY (indices, current futures, two
// strikes of calls and puts each), and a random walk that ticks every instrument once a second.
// Run: npx tsx packages/server/test/kite-stand-in/main.ts [--port N] [--redirect URL] [--user ID]
// then start the server with the printed KITE_* variables and add the printed api key and secret as
// the Zerodha account with that client id.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { demoUniverse } from './instruments';
import { istDate } from './kite-format';
import { startKiteStandIn } from './stand-in';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    user: { type: 'string', default: 'DEMO01' },
    redirect: { type: 'string' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a port number, got ${values.port}.`);
const userId = values.user;
const redirectUrl = values.redirect ?? `http://127.0.0.1:8080/api/broker_login/zerodha/${userId}`;

const standIn = await startKiteStandIn({ port });
const apiKey = `demo${randomBytes(4).toString('hex')}`;
const apiSecret = randomBytes(16).toString('hex');
standIn.addAccount({ apiKey, apiSecret, userId, redirectUrl });
const universe = demoUniverse(istDate(Date.now()));
const prices = new Map<number, number>();
for (const instrument of universe.instruments) {
  standIn.addInstrument(instrument);
  const start = universe.startPaise.get(instrument.instrumentToken) ?? 10_000;
  prices.set(instrument.instrumentToken, start);
  standIn.tick(instrument.instrumentToken, start);
}

/** One step of the walk: up to ±0.05% (at least one tick), rounded to the tick size, never below one tick. */
function step(): void {
  for (const instrument of universe.instruments) {
    const last = prices.get(instrument.instrumentToken) ?? instrument.tickSizePaise;
    const ticks = Math.max(1, Math.round((last * 0.0005) / instrument.tickSizePaise));
    const move = Math.round((Math.random() * 2 - 1) * ticks) * instrument.tickSizePaise;
    const next = Math.max(instrument.tickSizePaise, last + move);
    prices.set(instrument.instrumentToken, next);
    standIn.tick(instrument.instrumentToken, next);
  }
}
const walk = setInterval(step, 1_000);

const lines = [
  `KITE_API_URL=${standIn.apiUrl}`,
  `KITE_TICKER_URL=${standIn.tickerUrl}`,
  `KITE_LOGIN_URL=${standIn.loginUrl}`,
  `# Zerodha account: client id ${userId}, api key ${apiKey}, api secret ${apiSecret}`,
  `# The login page redirects to ${redirectUrl}`,
  '# Instruments:',
  ...universe.instruments.map((one) => `#   ${one.instrumentToken}\t${one.exchange}:${one.tradingSymbol}`),
];
process.stdout.write(`${lines.join('\n')}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(walk);
    void standIn.close().then(() => process.exit(0));
  });
}

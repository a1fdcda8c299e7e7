// Kite against the venue contract: a KiteVenue whose KiteApi talks to the recorded responder, with
// a clock that only moves when the venue sleeps (a 429's back-off passes at once) and a short HTTP
// timeout so the no-answer scenario waits a fraction of a second on a real socket.
import type { ClientOrderId } from '@vyuha/engine';
import { KiteApi } from '../../src/brokers/kite/kite-api';
import { KiteVenue, type KiteContracts } from '../../src/brokers/kite/kite-venue';
import { KITE_RECORDINGS } from './kite-recordings';
import { startRecordedResponder } from './recorded-responder';
import { describeVenueContract, type ContractOrder } from './venue-contract';

/** 2026-04-06 09:15:00 IST. */
const T0 = Date.parse('2026-04-06T03:45:00Z');
const INFY_KEY = '408065';

/** The harness knows NSE:INFY only, so every other contract is one the platform cannot map. */
const CONTRACTS: KiteContracts = {
  kiteContractOf: (key) => (key === INFY_KEY ? { exchange: 'NSE', tradingSymbol: 'INFY' } : undefined),
  instrumentKeyOf: (exchange, symbol) => (exchange === 'NSE' && symbol === 'INFY' ? INFY_KEY : undefined),
};

describeVenueContract('Kite', async () => {
  const responder = await startRecordedResponder();
  let now = T0;
  const api = new KiteApi({ baseUrl: responder.url, apiKey: 'kite_api_key', accessToken: () => 'contract-access-token', timeoutMs: 300, now: () => now });
  const venue = new KiteVenue({
    api, contracts: CONTRACTS, clock: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  });
  return {
    venue,
    onOrderUpdate: (update) => venue.onOrderUpdate(update),
    recordings: KITE_RECORDINGS,
    responder,
    instrumentKey: INFY_KEY,
    intent: (order: ContractOrder) => ({
      ...order,
      clientOrderId: `0f8e0000-0000-4000-8000-0000000000c2-${order.tag}` as ClientOrderId,
      instrumentKey: INFY_KEY, exchange: 'NSE', tradingSymbol: 'INFY', product: 'MIS',
    }),
    close: () => responder.close(),
  };
});

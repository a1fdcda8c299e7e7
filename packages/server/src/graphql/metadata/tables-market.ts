/**
 * Market reference data: read-only through GraphQL (written by migrations, the seed, importers
 * and the market-data jobs). Public reference data is also readable without a token.
 */
import type { TableDeclaration } from './types';
import { MINUTE_CANDLES_FROM, referenceTable } from './permissions-rules';

const BY_INSTRUMENT = { instrument_id: 'instrument_id' } as const;
const INSTRUMENT_RELATIONSHIP = { instrument: { table: 'instruments', columns: BY_INSTRUMENT } } as const;

/**
 * Most 1-minute candles one select returns: 20 sessions of 375 minutes (about a month of one
 * instrument). Longer ranges and other intervals go through the candle action (aggregated).
 */
export const CANDLE_ROW_LIMIT = 20 * 375;

const exchanges: TableDeclaration = {
  name: 'exchanges',
  description: 'Exchange settings (docs/PRODUCT.md sections 3 and 9); the client filters by zone.',
  arrayRelationships: { holidays: { table: 'holidays', columns: { exchange: 'exchange' } } },
  permissions: referenceTable({ anonymous: true }),
};

const holidays: TableDeclaration = {
  name: 'holidays',
  description: 'Trading holidays, one row per exchange and date.',
  permissions: referenceTable({ anonymous: true }),
};

const specialSessions: TableDeclaration = {
  name: 'special_sessions',
  description: 'Muhurat, weekend budget and other special sessions; exchange NULL = the whole Indian market.',
  permissions: referenceTable({ anonymous: true }),
};

const instruments: TableDeclaration = {
  name: 'instruments',
  description: 'Every tradable or chartable instrument.',
  objectRelationships: {
    underlying: { table: 'instruments', columns: { underlying_instrument_id: 'instrument_id' } },
    index_config: { table: 'index_configs', columns: BY_INSTRUMENT },
  },
  arrayRelationships: {
    // docs/PRODUCT.md section 3 "instrument ... ltps with price": a list under the table's own name, as
    // Hasura names array relationships; it holds at most one row (one last price per instrument).
    ltps: { table: 'ltps', columns: BY_INSTRUMENT },
    fno_expiries: { table: 'fno_expiries', columns: BY_INSTRUMENT },
  },
  permissions: referenceTable({ anonymous: false }),
};

const indexConfigs: TableDeclaration = {
  name: 'index_configs',
  description: 'Index instrument configs of docs/PRODUCT.md section 3.',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: true }),
};

// The one source of a last price (migration 0015): the newer of the latest stored candle's close
// and the recorded ltps row, with its time (updated_at) and source ('candle' or 'recorded'). The
// GraphQL name stays the spec's; the recorded rows themselves are only written by importers.
const ltps: TableDeclaration = {
  name: 'ltps',
  sqlName: 'instrument_last_prices',
  primaryKey: ['instrument_id'],
  description: 'Last price per instrument (price_paise, as of updated_at): the newer of the latest stored candle close and the recorded price; source says which.',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: false }),
};

const fnoExpiries: TableDeclaration = {
  name: 'fno_expiries',
  description: 'Listed expiries per underlying and segment.',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: false }),
};

const indexMonthlyCloses: TableDeclaration = {
  name: 'index_monthly_closes',
  description: 'Month-end index levels (points).',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: false }),
};

const indexKeyPoints: TableDeclaration = {
  name: 'index_key_points',
  description: 'Notable index levels (points).',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: false }),
};

const candles: TableDeclaration = {
  name: 'candles',
  description: "1-minute candles from the tier's earliest 1-minute date (x-hasura-W1m); other intervals through the candle action.",
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  // The claim is a date; the engine casts it to timestamptz, giving midnight of that date in the
  // SQL session's zone (UTC: 05:30 IST). Every Indian session lies between 05:30 IST and 05:30 IST
  // the next day, so `ts >= date` admits exactly the candles whose IST trading date is on or
  // after the claim (also with the session zone at IST midnight).
  permissions: referenceTable({
    anonymous: false,
    filter: { ts: { _gte: MINUTE_CANDLES_FROM } },
    limit: CANDLE_ROW_LIMIT,
    // count/sum over millions of rows is no screen's need and an easy way to load the database.
    allowAggregations: false,
  }),
};

const eodPrices: TableDeclaration = {
  name: 'eod_prices',
  description: 'End-of-day F&O prices from bhavcopies.',
  objectRelationships: INSTRUMENT_RELATIONSHIP,
  permissions: referenceTable({ anonymous: false }),
};

/** The market tables in declaration order. */
export const MARKET_TABLES: readonly TableDeclaration[] = [
  exchanges, holidays, specialSessions, instruments, indexConfigs, ltps, fnoExpiries, indexMonthlyCloses,
  indexKeyPoints, candles, eodPrices,
];

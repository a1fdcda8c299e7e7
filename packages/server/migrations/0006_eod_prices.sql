-- 0006: end-of-day contract prices (NSE F&O bhavcopy imports).
--
-- The candles table is the 1-minute base; a bhavcopy gives one row per contract per trading day,
-- with a settlement price and open interest, which belongs in its own table rather than being
-- passed off as a 1-minute bar.

CREATE TABLE eod_prices (
  instrument_id integer NOT NULL REFERENCES instruments (instrument_id) ON DELETE CASCADE,
  trade_date date NOT NULL,
  -- NULL open/high/low/close = the contract did not trade that day (the bhavcopy writes 0).
  open_paise integer CHECK (open_paise > 0),
  high_paise integer CHECK (high_paise > 0),
  low_paise integer CHECK (low_paise > 0),
  close_paise integer CHECK (close_paise > 0),
  settle_paise integer CHECK (settle_paise > 0),
  -- Legacy bhavcopies count contracts traded; UDiFF reports a traded volume. Each as published.
  contracts bigint CHECK (contracts >= 0),
  volume bigint CHECK (volume >= 0),
  oi bigint NOT NULL DEFAULT 0 CHECK (oi >= 0),
  source candle_source NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instrument_id, trade_date),
  CONSTRAINT eod_prices_range CHECK (
    high_paise IS NULL OR low_paise IS NULL OR open_paise IS NULL OR close_paise IS NULL
    OR (high_paise >= greatest(open_paise, close_paise, low_paise) AND low_paise <= least(open_paise, close_paise)))
);

-- "Every contract on a trading day" (an option chain's closing prices, a bhavcopy re-export).
CREATE INDEX eod_prices_trade_date_idx ON eod_prices (trade_date);

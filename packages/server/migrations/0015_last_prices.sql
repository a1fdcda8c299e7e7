-- 0015: one source of an instrument's last price.
--
-- The payoff screen read `ltps` (which the seed filled with each index's latest month-end close)
-- while the chart and its option chain used the last stored candle, so the two screens showed
-- different prices for NIFTY 50. Now every reader goes through this view:
--   last price = the newer of the latest stored 1-minute candle's close (as of the end of that
--   minute) and the recorded price in `ltps` (a bhavcopy's close or settlement, later a feed);
--   on equal times the candle wins. `source` says which: 'candle' or 'recorded'.
-- GraphQL serves the view under the spec's name (`ltps`, and `instruments.ltps`): see
-- packages/server/src/graphql/metadata/tables-market.ts. The candle lookup is one backward step
-- of the candles primary key (instrument_id, ts) per instrument.
CREATE VIEW instrument_last_prices AS
SELECT i.instrument_id, latest.price_paise, latest.updated_at, latest.source
FROM instruments i
CROSS JOIN LATERAL (
  SELECT candidate.price_paise, candidate.updated_at, candidate.source
  FROM (
    (SELECT c.close_paise::bigint AS price_paise, c.ts + interval '1 minute' AS updated_at, 'candle'::text AS source
     FROM candles c
     WHERE c.instrument_id = i.instrument_id
     ORDER BY c.ts DESC
     LIMIT 1)
    UNION ALL
    SELECT l.price_paise, l.updated_at, 'recorded'::text
    FROM ltps l
    WHERE l.instrument_id = i.instrument_id
  ) candidate
  ORDER BY candidate.updated_at DESC, candidate.source ASC
  LIMIT 1
) latest;

COMMENT ON VIEW instrument_last_prices IS
  'Last price per instrument: the newer of the latest candle close and the recorded ltps row (migration 0015).';

-- The seed no longer invents last prices from month-end closes (a month-end index level is not a
-- trade, and it disagreed with the stored history). Remove the rows earlier seeds wrote: an index's
-- row whose price and time are exactly a month-end close at 15:30 IST.
DELETE FROM ltps l
USING instruments i, index_monthly_closes m
WHERE i.instrument_id = l.instrument_id
  AND i.kind = 'index'
  AND m.instrument_id = l.instrument_id
  AND m.close IS NOT NULL
  AND l.price_paise = round(m.close * 100)::bigint
  AND l.updated_at = ((m.month + interval '1 month' - interval '1 day')::date + time '15:30') AT TIME ZONE 'Asia/Kolkata';

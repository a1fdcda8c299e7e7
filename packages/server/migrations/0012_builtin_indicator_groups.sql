-- 0012: the built-in indicator groups of the /chart screen (indicator_configs rows with user_id
-- NULL, readable by every signed-in role, written by no user: see tables-trading.ts).
--
-- `indicators` is a list, one entry per indicator, read by the web app's
-- packages/web/src/pages/trading/chart/indicator-groups.ts:
--   { "name": "ema", "parameters": [9], "pane": "price", "colors": ["#f59f00"], "outputs": [0] }
--   name       an indicator of the engine's factory (createIndicator / indicatorNames)
--   parameters its numbers in the factory's order (macd: fast, slow, signal; bb: period, deviations)
--   pane       "price" (drawn over the candles) or "own" (a pane of its own below them)
--   colors     #rrggbb per drawn output (the last one repeats)
--   outputs    optional output indexes to draw (macd 0 line, 1 signal, 2 histogram; supertrend
--              0 line, 1 direction); every output when left out
-- Idempotent: the (user_id, name) key treats NULLs as equal, so a second run inserts nothing and
-- never overwrites a group an operator has since edited.
INSERT INTO indicator_configs (user_id, name, indicators) VALUES
  (NULL, 'Moving averages', '[
    {"name": "ema", "parameters": [9], "pane": "price", "colors": ["#f59f00"]},
    {"name": "ema", "parameters": [21], "pane": "price", "colors": ["#228be6"]},
    {"name": "sma", "parameters": [50], "pane": "price", "colors": ["#be4bdb"]}
  ]'),
  (NULL, 'Momentum', '[
    {"name": "rsi", "parameters": [14], "pane": "own", "colors": ["#7950f2"]},
    {"name": "macd", "parameters": [12, 26, 9], "pane": "own", "colors": ["#228be6", "#fd7e14", "#868e96"]}
  ]'),
  (NULL, 'Volatility', '[
    {"name": "bb", "parameters": [20, 2], "pane": "price", "colors": ["#868e96", "#15aabf", "#15aabf"]},
    {"name": "atr", "parameters": [14], "pane": "own", "colors": ["#e64980"]}
  ]'),
  (NULL, 'Trend', '[
    {"name": "supertrend", "parameters": [10, 3], "pane": "price", "colors": ["#40c057"], "outputs": [0]},
    {"name": "adx", "parameters": [14], "pane": "own", "colors": ["#fab005", "#40c057", "#fa5252"]}
  ]')
ON CONFLICT ON CONSTRAINT indicator_configs_name_key DO NOTHING;

-- 0031: parameter sweeps and walk-forwards as jobs (packages/server/src/jobs/sweep-*.ts,
-- packages/server/src/graphql/actions/sweep-actions.ts).
--
-- sweeps: one row per sweep or walk-forward a user started, usually from a backtest run
-- (`run_id`): the algorithm version it compiles, the instrument, and the whole `request` (date
-- range, interval, investment, parameter ranges, constraints, sample, metric, walk-forward
-- windows) resolved when it was started, so a later edit of the algorithm never changes a queued
-- sweep. Life: QUEUED -> IN PROGRESS (its first chunk started) -> COMPLETE | ERROR | CANCELLED;
-- an ended sweep never changes again.
-- - `combinations` are the rows a complete sweep has (walk-forward: its windows); `rows_done`
--   counts the rows written, and the sweep completes when they are all there, exactly once.
-- - Credits: `estimated_candles` is fixed at start; `candles` is what the `licences` view counts
--   against the user's BACKTEST credits: the estimate while the sweep is queued or running, then
--   the candles its runs processed (at most the estimate) once it ended.
--
-- sweep_results: one row per combination (`position` = its index in the sweep's grid order) or,
-- for a walk-forward, per window (`position` = the window number): the bindings and the metrics.
-- The primary key (sweep_id, position) makes a retried chunk's rows no-ops.

CREATE TABLE sweeps (
  sweep_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  -- The signed-in user who started it (a manager acting for the owner, or the owner); no foreign key, as audit rows.
  actor_id uuid NOT NULL,
  -- The backtest run it was started from, when it was.
  run_id uuid REFERENCES strategy_runs (run_id) ON DELETE SET NULL,
  algorithm_id uuid REFERENCES algorithms (algorithm_id) ON DELETE SET NULL,
  algorithm_version integer NOT NULL CHECK (algorithm_version >= 1),
  instrument_id integer NOT NULL REFERENCES instruments (instrument_id),
  kind text NOT NULL CHECK (kind IN ('sweep', 'walkforward')),
  request jsonb NOT NULL CHECK (jsonb_typeof(request) = 'object'),
  metric text NOT NULL,
  status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'IN PROGRESS', 'COMPLETE', 'ERROR', 'CANCELLED')),
  progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  combinations integer NOT NULL CHECK (combinations >= 1),
  chunks integer NOT NULL CHECK (chunks >= 1),
  rows_done integer NOT NULL DEFAULT 0 CHECK (rows_done >= 0),
  estimated_candles bigint NOT NULL CHECK (estimated_candles >= 0),
  candles bigint NOT NULL CHECK (candles >= 0),
  -- COMPLETE: the best row and the stability around it (sweep), or the stitched out-of-sample metrics and the overfitting gap (walk-forward).
  summary jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  CHECK (rows_done <= combinations),
  CONSTRAINT sweeps_ended_has_finished CHECK ((status IN ('QUEUED', 'IN PROGRESS')) = (finished_at IS NULL)),
  CONSTRAINT sweeps_complete_has_summary CHECK (status <> 'COMPLETE' OR (summary IS NOT NULL AND rows_done = combinations)),
  CHECK (started_at IS NULL OR started_at >= created_at),
  CHECK (finished_at IS NULL OR finished_at >= created_at)
);

-- A user's sweeps, newest first (and the candle sum of the licences view).
CREATE INDEX sweeps_user_idx ON sweeps (user_id, created_at DESC);
-- Recovery looks for sweeps not ended.
CREATE INDEX sweeps_active_idx ON sweeps (created_at) WHERE status IN ('QUEUED', 'IN PROGRESS');
CREATE INDEX sweeps_run_idx ON sweeps (run_id) WHERE run_id IS NOT NULL;

-- An ended sweep's outcome is final: a late chunk or a second completion changes nothing (the
-- references set to NULL when a run or an algorithm is deleted may still change).
CREATE FUNCTION public.sweeps_final() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IN ('COMPLETE', 'ERROR', 'CANCELLED')
     AND (NEW.status, NEW.progress, NEW.rows_done, NEW.candles, NEW.summary, NEW.error, NEW.finished_at)
         IS DISTINCT FROM (OLD.status, OLD.progress, OLD.rows_done, OLD.candles, OLD.summary, OLD.error, OLD.finished_at) THEN
    RAISE EXCEPTION 'sweep % already ended (%)', OLD.sweep_id, OLD.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'sweeps_final';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER sweeps_final BEFORE UPDATE ON sweeps
  FOR EACH ROW EXECUTE FUNCTION public.sweeps_final();

CREATE TABLE sweep_results (
  sweep_id uuid NOT NULL REFERENCES sweeps (sweep_id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  bindings jsonb NOT NULL CHECK (jsonb_typeof(bindings) = 'object'),
  metrics jsonb NOT NULL CHECK (jsonb_typeof(metrics) = 'object'),
  -- Candles the row's runs processed (a walk-forward window: its in-sample sweep and out-of-sample run).
  candles bigint NOT NULL CHECK (candles >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sweep_id, position)
);

-- Credits used count sweeps too: the view of 0004 with the sweeps' candles added.
CREATE OR REPLACE VIEW licences AS
WITH today AS (
  SELECT (now() AT TIME ZONE 'Asia/Kolkata')::date AS day
)
SELECT u.user_id,
       'backtest'::text AS licence_type,
       coalesce(grants.total, 0)::bigint AS total_credits,
       (coalesce(used.candles, 0) + coalesce(swept.candles, 0))::bigint AS utilized_credits,
       grants.expire_on,
       grants.activated_on
FROM users u
CROSS JOIN today
LEFT JOIN LATERAL (
  SELECT sum(c.credits) AS total, max(c.expiry) AS expire_on, max(c.created_at) AS activated_on
  FROM user_credits c
  WHERE c.user_id = u.user_id AND c.category = 'BACKTEST' AND c.subcategory = 'CANDLES'
    AND c.expiry >= today.day
) grants ON true
LEFT JOIN LATERAL (
  SELECT sum(r.candles) AS candles FROM strategy_runs r WHERE r.user_id = u.user_id
) used ON true
LEFT JOIN LATERAL (
  SELECT sum(s.candles) AS candles FROM sweeps s WHERE s.user_id = u.user_id
) swept ON true
UNION ALL
SELECT u.user_id,
       'strategy'::text,
       coalesce(counts.available, 0)::bigint,
       coalesce(counts.utilized, 0)::bigint,
       grants.expire_on,
       grants.activated_on
FROM users u
CROSS JOIN today
LEFT JOIN LATERAL (
  SELECT sum(d.available) AS available, sum(d.utilized) AS utilized
  FROM deployed_strategies d
  WHERE d.user_id = u.user_id AND d.expiry >= today.day
) counts ON true
LEFT JOIN LATERAL (
  SELECT max(c.expiry) AS expire_on, max(c.created_at) AS activated_on
  FROM user_credits c
  WHERE c.user_id = u.user_id AND c.category = 'STRATEGIES' AND c.subcategory = 'DEPLOYED'
    AND c.expiry >= today.day
) grants ON true;

SELECT public.watch_table_changes('public.sweeps');
SELECT public.watch_table_changes('public.sweep_results');

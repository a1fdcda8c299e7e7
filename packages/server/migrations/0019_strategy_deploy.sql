-- 0019: deploying, stopping and confirming strategies (packages/server/src/trading/deployments.ts,
-- the GraphQL actions deploy_strategy, stop_strategy, confirm_signal).
--
-- - strategy_runs: a stop asked for (stop_requested_at, and whether to square off first), the
--   runner's lease (lease_owner, heartbeat_at: written by the runner, read to take a dead worker's
--   runs over), words for a run that ended in ERROR or was squared off (status_reason), and the
--   licence slot the run holds (licence_id: the deployed_strategies row whose `utilized` it
--   counts in; NULL once released, so a slot is given back once).
-- - pending_signals: the run that raised it, when it expires (the end of its bar's session) and
--   what became of it. The spec's two states stay: PENDING has no outcome, PROCESSED has one.
-- - strategies: the life of a deployable strategy, guarded here so no client can skip deploy.

ALTER TABLE strategy_runs
  ADD COLUMN stop_requested_at timestamptz,
  ADD COLUMN stop_square_off boolean NOT NULL DEFAULT false,
  ADD COLUMN lease_owner text,
  ADD COLUMN heartbeat_at timestamptz,
  ADD COLUMN status_reason text,
  ADD COLUMN licence_id uuid REFERENCES deployed_strategies (id) ON DELETE SET NULL;

CREATE INDEX strategy_runs_licence_idx ON strategy_runs (licence_id) WHERE licence_id IS NOT NULL;

ALTER TABLE pending_signals
  ADD COLUMN run_id uuid REFERENCES strategy_runs (run_id) ON DELETE CASCADE,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN outcome text CHECK (outcome IN ('ACCEPTED', 'REJECTED', 'EXPIRED')),
  -- An unknown state is the state check's to refuse.
  ADD CONSTRAINT pending_signals_outcome_matches_state CHECK (
    CASE state WHEN 'PENDING' THEN outcome IS NULL WHEN 'PROCESSED' THEN outcome IS NOT NULL ELSE true END);

-- The runner reads its run's signals: the PENDING ones to expire, the ACCEPTED ones to place.
CREATE INDEX pending_signals_run_idx ON pending_signals (run_id, created_at) WHERE run_id IS NOT NULL;

-- A signal moved to PROCESSED by a plain update (update_pending_signals_by_pk, as the spec's
-- calls do) was dismissed, not confirmed: only confirm_signal accepts one, so that the runner is
-- told and the expiry is checked. The update gets the outcome REJECTED and, if none was given,
-- the time it was processed.
CREATE FUNCTION public.pending_signals_default_outcome() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'PROCESSED' AND NEW.outcome IS NULL THEN
    NEW.outcome := 'REJECTED';
  END IF;
  IF NEW.state = 'PROCESSED' AND NEW.processed_at IS NULL THEN
    NEW.processed_at := greatest(now(), NEW.created_at);
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER pending_signals_default_outcome BEFORE INSERT OR UPDATE ON pending_signals
  FOR EACH ROW EXECUTE FUNCTION public.pending_signals_default_outcome();

-- The status of a strategy:
--   DRAFT -> ACTIVE <-> PAUSED -> STOPPED -> ACTIVE (redeploy); ACTIVE -> STOPPED;
--   any status but ACTIVE -> ARCHIVED -> DRAFT.
-- A row becomes ACTIVE only in a transaction that said `SET LOCAL vyuha.deploying = 'on'`, which
-- only deploy does after its checks (permission, licence slot, configuration, the run row).
-- Baskets and ensembles are not run by the runtime yet: their status stays a label the user
-- sets freely, except ACTIVE, which is deploy's for every kind.
CREATE FUNCTION public.strategies_guard_status() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  deploying boolean := coalesce(current_setting('vyuha.deploying', true), '') = 'on';
  previous text := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.status END;
BEGIN
  IF NEW.status IS NOT DISTINCT FROM previous THEN
    RETURN NEW;
  END IF;
  IF NEW.status = 'ACTIVE' AND NOT deploying THEN
    -- Inserting an ACTIVE basket is how tests and imports set up a running account; an algo
    -- strategy always starts as a DRAFT.
    IF TG_OP = 'UPDATE' OR NEW.kind = 'algo' THEN
      RAISE EXCEPTION 'a strategy becomes ACTIVE only through deploy_strategy (strategy %)', NEW.strategy_id
        USING ERRCODE = 'check_violation', CONSTRAINT = 'strategies_status_transition';
    END IF;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.kind <> 'algo' THEN
    RETURN NEW;
  END IF;
  IF NOT (
    (previous = 'DRAFT' AND NEW.status IN ('ACTIVE', 'ARCHIVED'))
    OR (previous = 'ACTIVE' AND NEW.status IN ('PAUSED', 'STOPPED'))
    OR (previous = 'PAUSED' AND NEW.status IN ('ACTIVE', 'STOPPED', 'ARCHIVED'))
    OR (previous = 'STOPPED' AND NEW.status IN ('ACTIVE', 'ARCHIVED'))
    OR (previous = 'ARCHIVED' AND NEW.status = 'DRAFT')
  ) THEN
    RAISE EXCEPTION 'strategy % cannot go from % to % (DRAFT -> ACTIVE <-> PAUSED -> STOPPED; ARCHIVED from any status but ACTIVE; ARCHIVED -> DRAFT)',
      NEW.strategy_id, previous, NEW.status
      USING ERRCODE = 'check_violation', CONSTRAINT = 'strategies_status_transition';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER strategies_guard_status BEFORE INSERT OR UPDATE OF status ON strategies
  FOR EACH ROW EXECUTE FUNCTION public.strategies_guard_status();

-- 0005: the append-only audit trail (MARKET.md: keep an audit trail of orders and changes for
-- five years).

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- No foreign key on purpose: the trail must outlive the user, and ON DELETE SET NULL would be
  -- an UPDATE, which this table refuses. NULL = the system itself.
  actor_user_id uuid,
  action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_.:-]*$'),
  entity text NOT NULL CHECK (entity <> ''),
  entity_id text,
  before jsonb,
  after jsonb,
  ip inet
);

-- History of one entity, and what one actor did, newest first.
CREATE INDEX audit_log_entity_idx ON audit_log (entity, entity_id, at DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, at DESC) WHERE actor_user_id IS NOT NULL;
-- Rows arrive in time order, so a BRIN index on `at` is tiny and serves date-range scans.
CREATE INDEX audit_log_at_brin ON audit_log USING brin (at);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION public.refuse_change('audit_log is append-only: rows cannot be updated');

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION public.refuse_change('audit_log is append-only: rows cannot be deleted');

-- Row triggers do not fire for TRUNCATE, so it needs its own statement trigger.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION public.refuse_change('audit_log is append-only: it cannot be truncated');

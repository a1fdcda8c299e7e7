-- 0030: acting for a managed user, audited, and manager links made with the user's consent
-- (/manageAccounts; packages/server/src/graphql/execute/acting-audit.ts and
-- packages/server/src/graphql/actions/manager-link-actions.ts).
--
-- acting_audit: one row per GraphQL mutation (table mutations and actions, over HTTP and
-- WebSocket) made while a manager acts for a user (`x-hasura-managed-user-id`): actor = the
-- signed-in manager, subject = the managed user, the operation's name and root fields, when, and
-- whether it succeeded. Written only by the GraphQL engine after the mutation ran; rows are
-- never changed afterwards, and stay when either user is deleted. actor_name keeps the manager's name as it was, so the managed user
-- (who cannot read the manager's profile) sees who acted.
--
-- manager_link_requests: a manager's request to manage the account of an e-mail address.
-- - The token e-mailed to the address is never stored: token_sha256 is the SHA-256 of its text.
-- - user_id is the account the address belonged to when asked; NULL when it had none (the
--   request is kept anyway so the manager's answer and limits do not depend on it, and no mail
--   goes out). Never exposed: it would tell the manager whether the address has an account.
-- - A request is pending while responded_at IS NULL and expires_at is in the future; one pending
--   request per (manager, address): asking again replaces it. A response is final.

CREATE TABLE acting_audit (
  acting_audit_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- No foreign keys, as audit_log: the trail outlives either user.
  actor_id uuid NOT NULL,
  actor_name text NOT NULL,
  subject_id uuid NOT NULL,
  operation_name text CHECK (operation_name IS NULL OR char_length(operation_name) <= 200),
  root_fields text[] NOT NULL CHECK (cardinality(root_fields) BETWEEN 1 AND 100),
  outcome text NOT NULL CHECK (outcome IN ('ok', 'error')),
  -- The first error's message when outcome = 'error' (cut to 500 characters).
  error text CHECK (error IS NULL OR char_length(error) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT acting_audit_not_self CHECK (actor_id <> subject_id),
  CONSTRAINT acting_audit_error_only_on_error CHECK (outcome = 'error' OR error IS NULL)
);

-- "Recent actions taken for this user" (/manageAccounts) and "Actions taken by your manager" (/users/edit).
CREATE INDEX acting_audit_subject_idx ON acting_audit (subject_id, created_at DESC);
CREATE INDEX acting_audit_actor_idx ON acting_audit (actor_id, created_at DESC);

CREATE FUNCTION public.acting_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'acting_audit rows are never changed'
    USING ERRCODE = 'check_violation', CONSTRAINT = 'acting_audit_append_only';
END;
$$;

CREATE TRIGGER acting_audit_append_only BEFORE UPDATE ON acting_audit
  FOR EACH ROW EXECUTE FUNCTION public.acting_audit_append_only();

CREATE TABLE manager_link_requests (
  request_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  manager_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email) AND email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' AND char_length(email) <= 320),
  user_id uuid REFERENCES users (user_id) ON DELETE CASCADE,
  token_sha256 bytea NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  responded_at timestamptz,
  response text CHECK (response IN ('accepted', 'declined')),
  CHECK (expires_at > created_at),
  CHECK ((responded_at IS NULL) = (response IS NULL)),
  CONSTRAINT manager_link_requests_not_self CHECK (user_id IS NULL OR user_id <> manager_id)
);

-- One unanswered request per manager and address (asking again deletes the old one first).
CREATE UNIQUE INDEX manager_link_requests_open_idx ON manager_link_requests (manager_id, email) WHERE responded_at IS NULL;
-- The manager's list, newest first.
CREATE INDEX manager_link_requests_manager_idx ON manager_link_requests (manager_id, created_at DESC);

-- A response is final.
CREATE FUNCTION public.manager_link_requests_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.responded_at IS NOT NULL OR NEW.token_sha256 IS DISTINCT FROM OLD.token_sha256
     OR NEW.manager_id IS DISTINCT FROM OLD.manager_id OR NEW.email IS DISTINCT FROM OLD.email
     OR NEW.user_id IS DISTINCT FROM OLD.user_id THEN
    RAISE EXCEPTION 'manager link request % keeps its parties and token, and its response is final', OLD.request_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'manager_link_requests_final';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER manager_link_requests_guard BEFORE UPDATE ON manager_link_requests
  FOR EACH ROW EXECUTE FUNCTION public.manager_link_requests_guard();

-- Live queries: the audit tables on /manageAccounts and /users/edit update as rows arrive.
SELECT public.watch_table_changes('public.acting_audit');

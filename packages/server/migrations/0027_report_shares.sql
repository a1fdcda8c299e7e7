-- 0027: read-only links to a trading report (/report?token=..., docs/PRODUCT.md section 2's noauth
-- route), made by a manager or superadmin on /reports (packages/server/src/reports/).
--
-- - The scope is fixed when the link is made: the users (a manager's only users they managed at
--   that moment), the IST date range and the mode (PAPER or LIVE; never BACKTEST). Opening the
--   link also checks that the owner still manages each user (a superadmin owner: any user), so
--   unlinking a user takes them out of every link of that manager.
-- - The token itself is never stored: token_sha256 is the SHA-256 of its text. The token is shown
--   once, when the link is made; a lost token means a new link.
-- - A link stops working when revoked (revoked_at, never cleared) or past expires_at (optional).
-- - Not exposed to GraphQL tables: the owner reads and revokes links through actions, and the
--   anonymous reader reaches the report only through the token.

CREATE TABLE report_shares (
  share_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  token_sha256 bytea NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
  label text NOT NULL DEFAULT '' CHECK (char_length(label) <= 120),
  user_ids uuid[] NOT NULL CHECK (cardinality(user_ids) BETWEEN 1 AND 500 AND array_position(user_ids, NULL) IS NULL),
  date_from date NOT NULL,
  date_to date NOT NULL,
  mode text NOT NULL CHECK (mode IN ('PAPER', 'LIVE')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  CHECK (date_from <= date_to),
  CHECK (expires_at IS NULL OR expires_at > created_at),
  CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);

-- The owner's list, newest first.
CREATE INDEX report_shares_owner_idx ON report_shares (owner_id, created_at DESC);

-- A revoked link stays revoked.
CREATE FUNCTION public.report_shares_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
    RAISE EXCEPTION 'report link % is revoked and stays revoked', OLD.share_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'report_shares_revoked_final';
  END IF;
  IF NEW.token_sha256 IS DISTINCT FROM OLD.token_sha256 OR NEW.owner_id IS DISTINCT FROM OLD.owner_id
     OR NEW.user_ids IS DISTINCT FROM OLD.user_ids OR NEW.date_from IS DISTINCT FROM OLD.date_from
     OR NEW.date_to IS DISTINCT FROM OLD.date_to OR NEW.mode IS DISTINCT FROM OLD.mode THEN
    RAISE EXCEPTION 'report link % keeps the token and scope it was made with', OLD.share_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'report_shares_scope_fixed';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER report_shares_guard BEFORE UPDATE ON report_shares
  FOR EACH ROW EXECUTE FUNCTION public.report_shares_guard();

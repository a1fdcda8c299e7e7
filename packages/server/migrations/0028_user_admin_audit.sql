-- 0028: the trail of user administration (/users/list and /users/edit; the GraphQL actions of
-- packages/server/src/graphql/actions/user-admin-actions.ts) and support's masked names.
--
-- - Every change to what a user may do is written to audit_log by the database itself, whoever
--   makes it (an admin action, a direct GraphQL write, SQL): credit grants (user_credits), licence
--   slots (deployed_strategies: `available` and `expiry` only; a deploy taking or giving back a
--   slot changes `utilized` and is the run's business, not an administrator's), permissions
--   (user_permissions), the tier (users.tier) and the disabled flag (auth.users.disabled).
--   One row per change: entity 'user_admin', entity_id the user's id (so a user's trail is one
--   index scan of audit_log_entity_idx), action '<table>.<insert|update|delete>', before and
--   after the row as JSON (NULL for the side that does not exist).
-- - Who: the transaction's `vyuha.actor_id` setting (`SET LOCAL`, which the admin actions make
--   with the signed-in user's id); NULL when a write did not say (the system, a seed, SQL).
-- - public.masked_name(text): support's view of another user's name, the same rule the GraphQL
--   engine applies to the masked `users.name` column (docs/PRODUCT.md section 6: first two
--   characters, four stars, last two; a name shorter than five characters is all stars).

CREATE FUNCTION public.masked_name(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN char_length(name) >= 5 THEN left(name, 2) || '****' || right(name, 2)
              ELSE repeat('*', char_length(name)) END
$$;

CREATE FUNCTION public.audit_user_admin() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor uuid := nullif(current_setting('vyuha.actor_id', true), '')::uuid;
  -- users.api_key is the user's own key: never copied into the trail.
  old_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) - 'api_key' END;
  new_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'INSERT') THEN to_jsonb(NEW) - 'api_key' END;
  target text := coalesce(new_row ->> coalesce(TG_ARGV[0], 'user_id'), old_row ->> coalesce(TG_ARGV[0], 'user_id'));
BEGIN
  INSERT INTO public.audit_log (actor_user_id, action, entity, entity_id, before, after)
  VALUES (actor, TG_ARGV[1] || '.' || lower(TG_OP), 'user_admin', target, old_row, new_row);
  RETURN NULL;
END;
$$;

CREATE TRIGGER user_credits_audit AFTER INSERT OR UPDATE OR DELETE ON user_credits
  FOR EACH ROW EXECUTE FUNCTION public.audit_user_admin('user_id', 'user_credits');

CREATE TRIGGER deployed_strategies_audit_grant AFTER INSERT OR DELETE ON deployed_strategies
  FOR EACH ROW EXECUTE FUNCTION public.audit_user_admin('user_id', 'deployed_strategies');

CREATE TRIGGER deployed_strategies_audit_change AFTER UPDATE OF available, expiry ON deployed_strategies
  FOR EACH ROW WHEN (OLD.available IS DISTINCT FROM NEW.available OR OLD.expiry IS DISTINCT FROM NEW.expiry)
  EXECUTE FUNCTION public.audit_user_admin('user_id', 'deployed_strategies');

CREATE TRIGGER user_permissions_audit AFTER INSERT OR DELETE ON user_permissions
  FOR EACH ROW EXECUTE FUNCTION public.audit_user_admin('user_id', 'user_permissions');

CREATE TRIGGER users_audit_tier AFTER UPDATE OF tier ON users
  FOR EACH ROW WHEN (OLD.tier IS DISTINCT FROM NEW.tier)
  EXECUTE FUNCTION public.audit_user_admin('user_id', 'users');

-- auth.users has secrets (password_hash, totp_secret, ...): only the id and the flag go to the trail.
CREATE FUNCTION public.audit_user_disabled() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.audit_log (actor_user_id, action, entity, entity_id, before, after)
  VALUES (nullif(current_setting('vyuha.actor_id', true), '')::uuid, 'auth.users.disabled', 'user_admin', NEW.id::text,
          jsonb_build_object('disabled', OLD.disabled), jsonb_build_object('disabled', NEW.disabled));
  RETURN NULL;
END;
$$;

CREATE TRIGGER auth_users_audit_disabled AFTER UPDATE OF disabled ON auth.users
  FOR EACH ROW WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled)
  EXECUTE FUNCTION public.audit_user_disabled();

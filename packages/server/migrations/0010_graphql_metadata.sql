-- 0010: what the GraphQL permissions need from the database.
--
-- Superadmins (and, within the non-staff tiers, administrators) change a user's tier through
-- `update_users` (docs/GRAPHQL-PERMISSIONS.md). The token takes the role from
-- auth.users.default_role and the allowed roles from auth.user_roles, so a tier change must reach
-- both in the same transaction: the new tier becomes the default and an allowed role, and the old
-- tier stops being allowed (otherwise a demoted user could still ask for it with x-hasura-role).
-- `user` and `me` are not tiers and are never touched. Tokens already issued keep their claims
-- until they expire (15 minutes by default); the next refresh carries the new tier.
CREATE FUNCTION public.sync_tier_to_auth() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tier IS DISTINCT FROM OLD.tier THEN
    UPDATE auth.users SET default_role = NEW.tier WHERE id = NEW.user_id;
    DELETE FROM auth.user_roles WHERE user_id = NEW.user_id AND role = OLD.tier;
    INSERT INTO auth.user_roles (user_id, role) VALUES (NEW.user_id, NEW.tier)
      ON CONFLICT (user_id, role) DO NOTHING;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER users_sync_tier_to_auth AFTER UPDATE OF tier ON users
  FOR EACH ROW EXECUTE FUNCTION public.sync_tier_to_auth();

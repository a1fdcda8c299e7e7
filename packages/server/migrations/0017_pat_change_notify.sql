-- 0017: a personal access token revoked, expired early or deleted is announced to every API
-- process, so the GraphQL engine ends that PAT's sessions at once (HTTP, CSV and open WebSockets;
-- packages/server/src/graphql/pat-sessions.ts).
--
-- The engine verifies access tokens without the database; for a token carrying
-- `x-hasura-auth-pat-id` it asks whether the PAT is live and keeps the answer a few seconds. This
-- trigger sends 0009's `vyuha_table_change` notification with the payload `auth.refresh_tokens`
-- whenever a PAT row changes, and the engine then forgets its answers and rechecks the open
-- sockets of PAT sessions.
--
-- Row-level with a WHEN on the PAT rows only, not 0009's statement trigger on the whole table:
-- every sign-in and every refresh writes `auth.refresh_tokens`, and none of those concern a PAT.
-- PostgreSQL folds identical payloads of one transaction, so revoking a PAT with its sessions
-- sends one notification. Inserting a PAT changes nothing for a session and notifies nothing.
CREATE TRIGGER vyuha_notify_pat_change
  AFTER UPDATE OR DELETE ON auth.refresh_tokens
  FOR EACH ROW WHEN (OLD.type = 'pat')
  EXECUTE FUNCTION public.notify_table_change();

CREATE TRIGGER vyuha_notify_pat_truncate
  AFTER TRUNCATE ON auth.refresh_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION public.notify_table_change();

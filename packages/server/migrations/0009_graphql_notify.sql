-- 0009: table-change notifications for GraphQL live queries.
--
-- Every API process LISTENs on `vyuha_table_change`; a statement that changes a table sends one
-- notification whose payload is `schema.table`. The live-query manager refetches only the
-- subscriptions that read that table. NOTIFY is database-wide, so a change made through one
-- process (or by a worker, or by psql) reaches the subscribers of every process.
--
-- Statement-level, not row-level: a COPY of a million candles sends one notification, and
-- PostgreSQL folds identical payloads inside one transaction into one, so a transaction costs
-- at most one notification per table it touched. Notifications are delivered at COMMIT only;
-- a rolled-back change sends nothing.

CREATE FUNCTION public.notify_table_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vyuha_table_change', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

-- Attaches the trigger to one table; idempotent. New migrations call it for the tables they
-- create: `SELECT public.watch_table_changes('public.my_table');`
CREATE FUNCTION public.watch_table_changes(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS vyuha_notify_table_change ON %s', target);
  EXECUTE format(
    'CREATE TRIGGER vyuha_notify_table_change AFTER INSERT OR UPDATE OR DELETE ON %s
       FOR EACH STATEMENT EXECUTE FUNCTION public.notify_table_change()', target);
  -- TRUNCATE triggers are statement-level by definition and need their own CREATE.
  EXECUTE format('DROP TRIGGER IF EXISTS vyuha_notify_table_truncate ON %s', target);
  EXECUTE format(
    'CREATE TRIGGER vyuha_notify_table_truncate AFTER TRUNCATE ON %s
       FOR EACH STATEMENT EXECUTE FUNCTION public.notify_table_change()', target);
END;
$$;

-- Every table of the public schema that exists now. Partitions are skipped: a statement on a
-- partitioned parent fires the parent's statement trigger (the name subscribers know).
DO $$
DECLARE
  item record;
BEGIN
  FOR item IN
    SELECT c.oid::regclass AS target
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname
  LOOP
    PERFORM public.watch_table_changes(item.target);
  END LOOP;
END;
$$;

-- 0014: a broker client id is unique per user, not across all users; the broker decides whose it is.
--
-- 0003 made (broker, client_id) unique across every user. The first user to type a client id held
-- it, so anyone could learn whether a client id was registered here (their insert failed) or take
-- another trader's id before that trader arrived. Now a user may record a client id once per
-- broker, whoever else recorded it; who really owns it is answered by the broker at the daily
-- login, which reports the broker's own id of the person who signed in
-- (packages/server/src/brokers/README.md):
--
-- - the row that logs in becomes `verified` (and active again if a login elsewhere had switched
--   it off);
-- - every other user's row with the same broker and client id becomes `claimed_elsewhere`: switched
--   off, its stored broker session deleted, and its owner told on the account page. The latest
--   successful login wins, so the true owner takes the id back by logging in.
ALTER TABLE user_brokers DROP CONSTRAINT user_brokers_broker_client_id_key;
ALTER TABLE user_brokers ADD CONSTRAINT user_brokers_user_broker_client_key UNIQUE (user_id, broker, client_id);

ALTER TABLE user_brokers
  ADD COLUMN ownership text NOT NULL DEFAULT 'unverified'
    CONSTRAINT user_brokers_ownership_check CHECK (ownership IN ('unverified', 'verified', 'claimed_elsewhere')),
  -- When the broker last settled `ownership` (a login of this row or of another user's row).
  ADD COLUMN ownership_checked_at timestamptz,
  -- A row the broker gave to someone else cannot be switched back on until its owner logs in.
  ADD CONSTRAINT user_brokers_claimed_elsewhere_inactive CHECK (ownership <> 'claimed_elsewhere' OR NOT active);

-- The login finds the other users' rows of a client id (Kite user ids are upper case; rows may not be).
CREATE INDEX user_brokers_broker_client_idx ON user_brokers (broker, upper(client_id));

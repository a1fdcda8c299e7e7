-- 0013: auth hardening (issue 15): sessions that came from a personal access token, the grant a
-- password-reset link gives, sign-in failure throttling that does not lock out the owner, and
-- pending passwordless sign-ups (no auth.users row until the link or code is used).

-- A session started with POST /signin/pat points at its PAT: refreshing checks the PAT is still
-- live, its refresh tokens never outlive it, and revoking the PAT revokes the session.
-- `password_reset_until`: a session started by a passwordReset link may change the password
-- once, without the current password, until then (the forgot-password path of the web app).
ALTER TABLE auth.refresh_tokens
  ADD COLUMN pat_id uuid REFERENCES auth.refresh_tokens (id) ON DELETE CASCADE,
  ADD COLUMN password_reset_until timestamptz,
  ADD CONSTRAINT refresh_tokens_pat_session_is_regular CHECK (pat_id IS NULL OR type = 'regular');

-- Serves revoking every session of a PAT.
CREATE INDEX refresh_tokens_pat_id_idx ON auth.refresh_tokens (pat_id) WHERE pat_id IS NOT NULL;

-- Consecutive failed sign-ins per subject: 'account:<key>' (strangers to the account, all
-- addresses together) or 'source:<key>|<ip>' (one address the account signed in from before, or
-- any address of an account with MFA). Each attempt is counted before it is judged and a success
-- clears it, so parallel guesses cannot slip through; past the free failures the next attempt
-- must wait until `next_attempt_at` (a growing delay, never a lock). A row idle for a day starts over.
CREATE TABLE auth.signin_throttle (
  subject text PRIMARY KEY CHECK (subject <> ''),
  failures integer NOT NULL CHECK (failures >= 0),
  last_attempt_at timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL
);

CREATE INDEX signin_throttle_last_attempt_at_idx ON auth.signin_throttle (last_attempt_at);

-- Addresses an account signed in from successfully (kept 30 days): from these the owner is never
-- refused because of other addresses' failures.
CREATE TABLE auth.signin_known_sources (
  account text NOT NULL CHECK (account <> ''),
  ip inet NOT NULL,
  last_success_at timestamptz NOT NULL,
  PRIMARY KEY (account, ip)
);

CREATE INDEX signin_known_sources_last_success_at_idx ON auth.signin_known_sources (last_success_at);

-- The per-address failure ceiling (bucket bruteForce) gives a success's reserved hit back, so a
-- window can go back to zero.
ALTER TABLE auth.rate_limit_hits DROP CONSTRAINT rate_limit_hits_hits_check;
ALTER TABLE auth.rate_limit_hits ADD CONSTRAINT rate_limit_hits_hits_check CHECK (hits >= 0);

-- A passwordless sign-in asked for an address or number that has no account yet. The user row
-- is created when the magic link (`ticket`) is followed or the code (`otp_hash`, argon2id) is
-- exchanged; a new request for the same channel and identity replaces the old one.
CREATE TABLE auth.pending_signups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  channel text NOT NULL CHECK (channel IN ('magic-link', 'email-otp', 'sms-otp')),
  identity text NOT NULL CHECK (identity <> ''),
  ticket text UNIQUE,
  otp_hash text,
  options jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(options) = 'object'),
  UNIQUE (channel, identity),
  CHECK (expires_at > created_at),
  CHECK ((channel = 'magic-link') = (ticket IS NOT NULL)),
  CHECK ((channel = 'magic-link') = (otp_hash IS NULL))
);

CREATE INDEX pending_signups_expires_at_idx ON auth.pending_signups (expires_at);

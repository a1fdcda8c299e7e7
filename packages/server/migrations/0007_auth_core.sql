-- 0007: what the auth core needs beyond 0001's hasura-auth tables: the access-token signing
-- keys and the shared rate-limit counters.

-- RS256 key pairs. The newest unretired key signs; a rotated key gets `retired_at` and stays in
-- the JWKS until every token it signed has expired (retired_at + access-token lifetime).
-- `private_key` is PKCS#8 PEM, or 'enc:v1:...' (AES-256-GCM) when AUTH_SIGNING_KEY_ENCRYPTION_SECRET
-- is set.
CREATE TABLE auth.signing_keys (
  kid text PRIMARY KEY CHECK (kid ~ '^[A-Za-z0-9_-]{8,}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  algorithm text NOT NULL DEFAULT 'RS256' CHECK (algorithm = 'RS256'),
  public_key text NOT NULL CHECK (public_key LIKE '-----BEGIN PUBLIC KEY-----%'),
  private_key text NOT NULL CHECK (private_key <> ''),
  retired_at timestamptz,
  CHECK (retired_at IS NULL OR retired_at >= created_at)
);

-- At most one key signs at a time.
CREATE UNIQUE INDEX signing_keys_one_current_idx ON auth.signing_keys ((true)) WHERE retired_at IS NULL;

-- Fixed-window counters: one row per bucket and subject ('ip:1.2.3.4', 'account:a@b.c'), shared
-- by every server process on the database. A row whose window has passed is restarted by the
-- next hit; the purge deletes rows idle for a day.
CREATE TABLE auth.rate_limit_hits (
  bucket text NOT NULL CHECK (bucket <> ''),
  subject text NOT NULL CHECK (subject <> ''),
  window_started_at timestamptz NOT NULL,
  hits integer NOT NULL CHECK (hits >= 1),
  PRIMARY KEY (bucket, subject)
);

CREATE INDEX rate_limit_hits_window_idx ON auth.rate_limit_hits (window_started_at);

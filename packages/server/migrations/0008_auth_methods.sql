-- 0008: what the other sign-in methods need beyond 0001's hasura-auth tables (TOTP MFA,
-- WebAuthn, OAuth/OpenID Connect, SMS and e-mail one-time codes).

-- The generic OpenID Connect provider configured by AUTH_PROVIDER_OIDC_* (GitHub and Google are
-- in 0001 already).
INSERT INTO auth.providers (id) VALUES ('oidc') ON CONFLICT (id) DO NOTHING;

-- The last TOTP step a user signed in or changed MFA with. A code is accepted only for a step
-- after this one, so a code seen over a shoulder cannot be replayed within its 30 s (or the
-- +-1 step window).
CREATE TABLE auth.totp_last_steps (
  user_id uuid PRIMARY KEY REFERENCES auth.users (id) ON DELETE CASCADE,
  last_step bigint NOT NULL CHECK (last_step >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Wrong guesses per secret: an MFA ticket ('mfaTotp:<uuid>'), or one issued SMS / e-mail code
-- ('sms:<user id>', 'email-otp:<user id>'). Issuing a new code deletes its row; after five
-- failures the ticket or code is dead (AUTH.md: OTPs allow 5 attempts).
CREATE TABLE auth.otp_attempts (
  subject text PRIMARY KEY CHECK (subject <> ''),
  failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  expires_at timestamptz NOT NULL
);

CREATE INDEX otp_attempts_expires_at_idx ON auth.otp_attempts (expires_at);

-- WebAuthn challenges handed out and not yet answered. The browser echoes the challenge inside
-- clientDataJSON, which is how a verify request finds its row; a row is deleted when used, so
-- each challenge verifies at most once. `user_id` is the account for add/elevate (and sign-in by
-- e-mail); sign-up keeps the e-mail, the pre-chosen user id and the sign-up options in `options`
-- because the user does not exist yet.
CREATE TABLE auth.webauthn_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  challenge text NOT NULL UNIQUE CHECK (challenge <> ''),
  purpose text NOT NULL CHECK (purpose IN ('signup', 'signin', 'add', 'elevate')),
  user_id uuid REFERENCES auth.users (id) ON DELETE CASCADE,
  email citext,
  options jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(options) = 'object'),
  CHECK (expires_at > created_at),
  CHECK (purpose IN ('signup', 'signin') OR user_id IS NOT NULL),
  CHECK (purpose <> 'signup' OR email IS NOT NULL)
);

-- Serves the purge of unanswered challenges.
CREATE INDEX webauthn_challenges_expires_at_idx ON auth.webauthn_challenges (expires_at);

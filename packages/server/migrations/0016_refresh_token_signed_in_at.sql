-- 0016: when a session's interactive sign-in happened (issue 15: enrolling a first security key,
-- TOTP or an OAuth link needs fresh proof). Every refresh token of a family carries the time its
-- family was signed in (password, link, code, key, provider, elevation) and rotation copies it, so
-- a token refreshed from an old session stays old: a thief replaying a stolen refresh token cannot
-- pass for someone who just signed in. Access tokens carry it as `auth_time`.
ALTER TABLE auth.refresh_tokens ADD COLUMN signed_in_at timestamptz;

-- Families that exist already: their first token's creation is when they were signed in (rotation
-- keeps every used token, so the earliest row of a family is its sign-in).
UPDATE auth.refresh_tokens t
SET signed_in_at = family.first_created_at
FROM (SELECT family_id, min(created_at) AS first_created_at FROM auth.refresh_tokens GROUP BY family_id) AS family
WHERE family.family_id = t.family_id;

ALTER TABLE auth.refresh_tokens
  ALTER COLUMN signed_in_at SET DEFAULT now(),
  ALTER COLUMN signed_in_at SET NOT NULL;

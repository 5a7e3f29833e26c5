-- A disabled user can neither log in nor use a token issued before (its tokens fail within the credential cache's lifetime).
ALTER TABLE app_user ADD COLUMN disabled_at TIMESTAMPTZ;

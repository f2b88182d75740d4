-- 0041: sessions can end; refresh tokens are looked up by session on logout.
ALTER TABLE sessions ADD COLUMN ended_at BIGINT;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

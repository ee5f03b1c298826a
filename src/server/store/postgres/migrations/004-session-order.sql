-- The order sessions were made in, for ending the oldest beyond the most there may be (64): `created` is in
-- milliseconds, and sessions made in the same one were ordered by their id (a hash), so a newer
-- session could be ended in place of the oldest. Sessions already there are numbered in `created`'s order.
CREATE SEQUENCE wisp_console_sessions_seq;
ALTER TABLE wisp_console_sessions ADD COLUMN seq bigint;
UPDATE wisp_console_sessions SET seq = s.n FROM (SELECT id, row_number() OVER (ORDER BY created, id) AS n FROM wisp_console_sessions) s WHERE s.id = wisp_console_sessions.id;
SELECT setval('wisp_console_sessions_seq', coalesce((SELECT max(seq) FROM wisp_console_sessions), 0) + 1, false);
ALTER TABLE wisp_console_sessions ALTER COLUMN seq SET DEFAULT nextval('wisp_console_sessions_seq'), ALTER COLUMN seq SET NOT NULL;
ALTER SEQUENCE wisp_console_sessions_seq OWNED BY wisp_console_sessions.seq;

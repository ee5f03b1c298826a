-- wisp-server's state, shared by every replica: API keys, the console's admin tokens and
-- sessions, usage records and rate-limit windows. Times are ms since the epoch unless noted.

-- API keys: only SHA-256 hashes of the secrets are kept.
CREATE TABLE wisp_api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  prefix text NOT NULL,
  hash bytea NOT NULL UNIQUE,
  created bigint NOT NULL,           -- seconds since the epoch
  revoked bigint                     -- seconds since the epoch; null while the key is active
);

-- Every change of a key (a revocation by any replica or the CLI, an edit or a deletion by hand)
-- tells every replica's cache at once; a truncation clears them all.
CREATE FUNCTION wisp_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('wisp_key_changes', '*');
  ELSE
    PERFORM pg_notify('wisp_key_changes', OLD.id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER wisp_api_keys_changed AFTER UPDATE OR DELETE ON wisp_api_keys
  FOR EACH ROW EXECUTE FUNCTION wisp_key_changed();
CREATE TRIGGER wisp_api_keys_truncated AFTER TRUNCATE ON wisp_api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION wisp_key_changed();

-- The console's admin tokens (hashes) and sessions. A session's CSRF token and playground key are
-- derived from its cookie, so only hashes are kept here too.
CREATE TABLE wisp_admin_tokens (
  hash bytea PRIMARY KEY,
  created bigint NOT NULL
);
CREATE TABLE wisp_console_sessions (
  id bytea PRIMARY KEY,              -- SHA-256 of the session cookie
  playground_hash bytea NOT NULL UNIQUE,
  created bigint NOT NULL,
  last_seen bigint NOT NULL
);
CREATE TABLE wisp_console_login_codes (
  hash bytea PRIMARY KEY,
  expires bigint NOT NULL
);

-- One row per request, under the request's id: a record written twice (a retry after a lost
-- acknowledgement) is stored once. Imported hourly counts are rows with requests > 1.
CREATE TABLE wisp_usage_events (
  id uuid PRIMARY KEY,
  t bigint NOT NULL,
  key text NOT NULL,
  model text,
  status integer NOT NULL,
  requests integer NOT NULL DEFAULT 1,
  errors integer NOT NULL DEFAULT 0,
  prompt_tokens bigint NOT NULL DEFAULT 0,
  completion_tokens bigint NOT NULL DEFAULT 0,
  images integer NOT NULL DEFAULT 0,
  replica text NOT NULL
);
CREATE INDEX wisp_usage_events_key_t ON wisp_usage_events (key, t);
CREATE INDEX wisp_usage_events_t ON wisp_usage_events (t);

-- What the console's Usage page reads: counts per hour, key and model, kept with the events.
CREATE TABLE wisp_usage_hourly (
  hour bigint NOT NULL,
  key text NOT NULL,
  model text NOT NULL,               -- '' for requests that reached no model
  requests bigint NOT NULL,
  errors bigint NOT NULL,
  prompt_tokens bigint NOT NULL,
  completion_tokens bigint NOT NULL,
  images bigint NOT NULL,
  PRIMARY KEY (hour, key, model)
);
CREATE TABLE wisp_key_last_used (
  key text PRIMARY KEY,
  t bigint NOT NULL
);

-- Each key's requests of the last minute (their times on the database's clock).
CREATE TABLE wisp_rate_windows (
  key text PRIMARY KEY,
  requests bigint[] NOT NULL DEFAULT '{}'
);

-- Admits a request of p_key under --rate-limit (p_rpm requests and p_tpm tokens over any minute;
-- 0: no limit), counting it; or says in how many ms to retry. The key's row is locked for the
-- check, so replicas admitting at once are counted one after another: never more than the limit.
-- Tokens are those of the key's usage records of the last minute.
CREATE FUNCTION wisp_admit(p_key text, p_rpm integer, p_tpm bigint, OUT retry_ms bigint, OUT reason text)
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  since bigint := now_ms - 60000;
  held bigint[];
  kept bigint[];
  total bigint;
  spent record;
BEGIN
  INSERT INTO wisp_rate_windows (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
  SELECT requests INTO held FROM wisp_rate_windows WHERE key = p_key FOR UPDATE;
  kept := ARRAY(SELECT x FROM unnest(held) AS x WHERE x > since ORDER BY x);
  IF p_rpm > 0 AND cardinality(kept) >= p_rpm THEN
    UPDATE wisp_rate_windows SET requests = kept WHERE key = p_key;
    retry_ms := kept[cardinality(kept) - p_rpm + 1] + 60000 - now_ms;
    reason := p_rpm || ' requests per minute';
    RETURN;
  END IF;
  IF p_tpm > 0 THEN
    SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) INTO total
      FROM wisp_usage_events WHERE key = p_key AND t > since;
    IF total >= p_tpm THEN
      -- The time the oldest spendings leave the minute and take the total under the limit.
      FOR spent IN SELECT t, prompt_tokens + completion_tokens AS n FROM wisp_usage_events
                   WHERE key = p_key AND t > since ORDER BY t LOOP
        total := total - spent.n;
        retry_ms := spent.t + 60000 - now_ms;
        EXIT WHEN total < p_tpm;
      END LOOP;
      reason := p_tpm || ' tokens per minute';
      UPDATE wisp_rate_windows SET requests = kept WHERE key = p_key;
      RETURN;
    END IF;
  END IF;
  UPDATE wisp_rate_windows SET requests = kept || now_ms WHERE key = p_key;
END $$;

-- wisp_admit as in 002, on a database whose clock was set back (NTP stepping it, a standby with
-- another clock taking over): the key's window and its usage records then hold times in the
-- clock's future, which stayed "within the last minute" for as long as the clock went back, so a
-- key at its limit was refused for an hour after a step of an hour. A request of the window
-- stamped later than now counts as made now (it leaves the window within a minute); usage stamped
-- later than now is not counted (the tokens limit lapses for at most the minute the step hid).
CREATE OR REPLACE FUNCTION wisp_admit(p_key text, p_rpm integer, p_tpm bigint, OUT retry_ms bigint, OUT reason text)
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  since bigint := now_ms - 60000;
  held bigint[];
  kept bigint[];
  total bigint;
  spent record;
BEGIN
  IF p_rpm > 0 THEN
    INSERT INTO wisp_rate_windows (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
    SELECT requests INTO held FROM wisp_rate_windows WHERE key = p_key FOR UPDATE;
    kept := ARRAY(SELECT least(x, now_ms) FROM unnest(held) AS x WHERE x > since ORDER BY 1);
    IF cardinality(kept) >= p_rpm THEN
      UPDATE wisp_rate_windows SET requests = kept WHERE key = p_key;
      retry_ms := kept[cardinality(kept) - p_rpm + 1] + 60000 - now_ms;
      reason := p_rpm || ' requests per minute';
      RETURN;
    END IF;
  END IF;
  IF p_tpm > 0 THEN
    SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) INTO total
      FROM wisp_usage_events WHERE key = p_key AND t > since AND t <= now_ms;
    IF total >= p_tpm THEN
      -- The time the oldest spendings leave the minute and take the total under the limit.
      FOR spent IN SELECT t, prompt_tokens + completion_tokens AS n FROM wisp_usage_events
                   WHERE key = p_key AND t > since AND t <= now_ms ORDER BY t LOOP
        total := total - spent.n;
        retry_ms := spent.t + 60000 - now_ms;
        EXIT WHEN total < p_tpm;
      END LOOP;
      reason := p_tpm || ' tokens per minute';
      IF p_rpm > 0 THEN
        UPDATE wisp_rate_windows SET requests = kept WHERE key = p_key;
      END IF;
      RETURN;
    END IF;
  END IF;
  IF p_rpm > 0 THEN
    UPDATE wisp_rate_windows SET requests = kept || now_ms WHERE key = p_key;
  END IF;
END $$;

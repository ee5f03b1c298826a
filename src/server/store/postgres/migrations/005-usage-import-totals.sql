-- What each imported hourly count held: `wisp-server db import` run again adds what the file server
-- counted since in an hour it imported before (its last one was still counting), rather than
-- nothing. Counts imported earlier whose rows are still there get theirs; older ones (their rows
-- pruned, their hours long past) keep none: imported, with nothing to add.
ALTER TABLE wisp_usage_imports
  ADD COLUMN requests bigint, ADD COLUMN errors bigint, ADD COLUMN prompt_tokens bigint,
  ADD COLUMN completion_tokens bigint, ADD COLUMN images bigint;
UPDATE wisp_usage_imports i
  SET requests = e.requests, errors = e.errors, prompt_tokens = e.prompt_tokens, completion_tokens = e.completion_tokens, images = e.images
  FROM wisp_usage_events e WHERE e.id = i.id;

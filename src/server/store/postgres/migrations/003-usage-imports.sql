-- The ids of the hourly counts `wisp-server db import` brought in. Their rows in wisp_usage_events
-- are pruned with the others after 35 days, and an import run again then found no conflict and
-- added the counts to wisp_usage_hourly a second time: these ids are never pruned.
CREATE TABLE wisp_usage_imports (
  id uuid PRIMARY KEY
);
-- Counts imported before this table, whose rows are still there.
INSERT INTO wisp_usage_imports (id) SELECT id FROM wisp_usage_events WHERE replica = 'import';

// Deleting per-request usage rows past their retention. One DELETE of a day's rows (86 million at
// 1,000 requests/s) would hold its locks and a connection for minutes, on every replica at once:
// instead one replica at a time (whichever takes the advisory lock; the others skip that hour)
// deletes them in small batches, each its own short transaction.
import type { Pool } from "pg";
import { withPoolClient } from "./pool-client";

/** The advisory lock of the prune ("wisp" + 1): never waited for. */
const PRUNE_LOCK = 0x77697371;

/** Deletes the rows older than `before`, `batch` at a time; how many, or undefined when another replica is at it. */
export function pruneUsage(pool: Pool, before: number, batch = 1_000): Promise<number | undefined> {
  // A connection that failed may still hold the lock: withPoolClient closes it.
  return withPoolClient(pool, async (client) => {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRUNE_LOCK]);
    if (!rows[0]!.locked) return undefined;
    try {
      let deleted = 0;
      for (;;) {
        const result = await client.query("DELETE FROM wisp_usage_events WHERE id IN (SELECT id FROM wisp_usage_events WHERE t < $1 LIMIT $2)", [before, batch]);
        deleted += result.rowCount ?? 0;
        if ((result.rowCount ?? 0) < batch) return deleted;
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRUNE_LOCK]);
    }
  });
}

// Usage records in the database, written in batches: records that arrive while a batch is being
// written go together in the next one (a group commit), so the answer each waits for costs about
// one round trip however many requests end at once. Each record is stored under its request's id
// (`ON CONFLICT DO NOTHING`), and the hourly counts and last-used times are added in the same
// statement from the rows actually inserted: a batch written twice counts once.
//
// While the database is away, records wait in a bounded buffer (its size is in GET /metrics) and
// answers no longer wait for them; they are written when the database is back. A full buffer makes
// new requests get 503 rather than be served uncounted; those refusals, and other requests that used
// nothing, are then not recorded (the requests admitted before it filled still are).
//
// A record the database refuses as it is (a data error: a malformed count) would fail its batch
// every time and hold back every record after it: the batch is halved until it is found, and it
// is set aside (logged, counted in wisp_usage_records_rejected_total) while the others are stored.
//
// A record's time is the database's, as the tokens window of the rate limit (wisp_admit) is: a
// replica's wall clock may be off by minutes. It is when the request was served, not when its batch
// was written (later, after an outage): the statement stamps each record its age before its own
// time, the age measured on this process's steady clock, which no clock setting moves.
import os from "node:os";
import type { Pool } from "pg";
import { delay } from "../../../core/base/delay";
import type { UsageBucket } from "../../../core/usage/usage-rollup";
import { StoreUnavailableError } from "../../errors";
import type { RecordedUsage } from "../../usage/usage-recorder";
import type { UsageRecords } from "../store";
import type { DatabaseHealth } from "./database-health";
import type { StoreMetrics } from "../../metrics/server-metrics";
import { isDataError, isRetryable } from "./pg-errors";
import { withPoolClient } from "./pool-client";

/** Records written in one statement at most. */
const BATCH = 500;
/** The longest an answer waits for its record to be stored before it goes out anyway (the record stays queued). */
const ANSWER_WAIT_MS = 2_000;

/** The columns of a record, besides its id: requests and errors (1 and 0 or 1 per request; imported hours have more). */
export interface UsageRow {
  id: string;
  /** When, ms since the epoch (an imported hour); null: `age` ms before the statement, by the database's clock (a served request). */
  t: number | null;
  age: number;
  key: string;
  model: string | null;
  status: number;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  images: number;
  replica: string;
}

/** Inserts rows not stored yet, and adds those to the hourly counts and last-used times; returns how many were new. */
export const INSERT_USAGE = `
WITH ins AS (
  INSERT INTO wisp_usage_events (id, t, key, model, status, requests, errors, prompt_tokens, completion_tokens, images, replica)
  SELECT id, coalesce(t, (extract(epoch FROM statement_timestamp()) * 1000)::bigint - age), key, model, status, requests, errors, prompt_tokens, completion_tokens, images, replica
  FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::bigint[], $10::bigint[], $11::int[], $12::text[])
    AS r(id, t, age, key, model, status, requests, errors, prompt_tokens, completion_tokens, images, replica)
  ON CONFLICT (id) DO NOTHING
  RETURNING t, key, model, requests, errors, prompt_tokens, completion_tokens, images
), hourly AS (
  INSERT INTO wisp_usage_hourly AS h (hour, key, model, requests, errors, prompt_tokens, completion_tokens, images)
  SELECT (t / 3600000) * 3600000, key, coalesce(model, ''), sum(requests), sum(errors), sum(prompt_tokens), sum(completion_tokens), sum(images)
  FROM ins GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (hour, key, model) DO UPDATE SET
    requests = h.requests + excluded.requests, errors = h.errors + excluded.errors,
    prompt_tokens = h.prompt_tokens + excluded.prompt_tokens, completion_tokens = h.completion_tokens + excluded.completion_tokens,
    images = h.images + excluded.images
  RETURNING 1
), last AS (
  INSERT INTO wisp_key_last_used AS l (key, t) SELECT key, max(t) FROM ins GROUP BY key ORDER BY key
  ON CONFLICT (key) DO UPDATE SET t = greatest(l.t, excluded.t)
  RETURNING 1
)
SELECT count(*)::int AS inserted FROM ins`;

export function insertValues(rows: readonly UsageRow[]): unknown[] {
  const column = <K extends keyof UsageRow>(k: K) => rows.map((r) => r[k]);
  return [column("id"), column("t"), column("age"), column("key"), column("model"), column("status"), column("requests"), column("errors"), column("prompt_tokens"), column("completion_tokens"), column("images"), column("replica")];
}

interface Waiting {
  /** Its age is taken as it is written. */
  row: Omit<UsageRow, "age">;
  /** When it was served, on the steady clock. */
  servedAt: number;
  /** Resolves the answer waiting for it (undefined once it no longer waits). */
  done: (() => void) | undefined;
  timer?: ReturnType<typeof setTimeout>;
}

export class PgUsage implements UsageRecords {
  private readonly queue: Waiting[] = [];
  private writing = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly replica = `${os.hostname()}:${process.pid}`;
  private complained = false;

  constructor(
    private readonly pool: Pool,
    private readonly health: DatabaseHealth,
    private readonly max: number,
    private readonly log: (message: string) => void,
    private readonly metrics: Pick<StoreMetrics, "usageRejected">,
    /** A steady clock, ms: only its differences are used. */
    private readonly steady: () => number = () => performance.now(),
  ) {
    health.onBackUp(() => this.kick());
  }

  /** Queues `event`; its `t` (this replica's clock) gives way to the database's. */
  record(event: RecordedUsage): Promise<void> {
    // Past the bound, only what was used is kept: the requests refused for the full buffer (and
    // the others that used nothing, as listing models) would otherwise grow it without end.
    if (this.full() && event.prompt_tokens === 0 && event.completion_tokens === 0 && event.images === 0) return Promise.resolve();
    const row = { ...event, t: null, requests: 1, errors: event.status >= 400 ? 1 : 0, replica: this.replica };
    return new Promise<void>((resolve) => {
      const waiting: Waiting = { row, servedAt: this.steady(), done: resolve };
      this.queue.push(waiting);
      if (!this.health.up) this.release(waiting);
      else {
        waiting.timer = setTimeout(() => this.release(waiting), ANSWER_WAIT_MS);
        waiting.timer.unref();
        this.kick();
      }
    });
  }

  pending(): number {
    return this.queue.length;
  }

  full(): boolean {
    return this.queue.length >= this.max;
  }

  /** Writes what waits, within `timeoutMs`; resolves with how many records are still not stored. */
  async flush(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length > 0 && Date.now() < deadline) {
      this.kick();
      await delay(20);
    }
    return this.queue.length;
  }

  async buckets(since: number): Promise<UsageBucket[]> {
    const rows = await this.read<Record<keyof UsageBucket, string>>(
      "SELECT hour, key, model, requests, errors, prompt_tokens, completion_tokens, images FROM wisp_usage_hourly WHERE hour > $1 ORDER BY hour, key, model",
      [since - 3_600_000],
    );
    return rows.map((r) => ({
      hour: Number(r.hour),
      key: r.key,
      model: r.model,
      requests: Number(r.requests),
      errors: Number(r.errors),
      prompt_tokens: Number(r.prompt_tokens),
      completion_tokens: Number(r.completion_tokens),
      images: Number(r.images),
    }));
  }

  async lastUsed(keys: readonly string[]): Promise<Record<string, number>> {
    const rows = await this.read<{ key: string; t: string }>("SELECT key, t FROM wisp_key_last_used WHERE key = ANY($1)", [keys]);
    return Object.fromEntries(rows.map((r) => [r.key, Number(r.t)]));
  }

  close(): void {
    clearTimeout(this.retryTimer);
  }

  private async read<Row extends object>(text: string, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(text, values)).rows;
    } catch (error) {
      if (this.health.failed(error, "usage read")) throw new StoreUnavailableError(`usage is kept in the database, which is ${this.health.condition}; retry in a moment`);
      throw error;
    }
  }

  private release(waiting: Waiting): void {
    clearTimeout(waiting.timer);
    waiting.done?.();
    waiting.done = undefined;
  }

  private kick(): void {
    if (!this.writing && this.queue.length > 0 && this.health.up) void this.write();
  }

  private retrySoon(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.kick(), 1_000);
    this.retryTimer.unref();
  }

  /** Stores `batch`, but for the records the database refuses as they are, which are set aside. */
  private async insert(batch: readonly Waiting[]): Promise<void> {
    try {
      // Aged once the connection is ours: a wait for one would otherwise stamp them that much later.
      await withPoolClient(this.pool, (client) => client.query(INSERT_USAGE, insertValues(this.aged(batch))));
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (batch.length === 1) return this.setAside(batch[0]!.row, error);
      // Halves stored before a later failure are stored once: the insert skips ids it has.
      const half = Math.ceil(batch.length / 2);
      await this.insert(batch.slice(0, half));
      await this.insert(batch.slice(half));
    }
  }

  /** The rows of `batch`, each with its age now. */
  private aged(batch: readonly Waiting[]): UsageRow[] {
    const now = this.steady();
    return batch.map((w) => ({ ...w.row, age: Math.max(0, Math.round(now - w.servedAt)) }));
  }

  private setAside(row: Waiting["row"], error: unknown): void {
    this.metrics.usageRejected();
    this.log(`usage: record ${row.id} set aside, the database refused it: ${(error as Error).message} (${JSON.stringify({ ...row, id: undefined, t: undefined })})`);
  }

  /** Writes batches until the queue is empty or the database is away. */
  private async write(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0 && this.health.up) {
        const batch = this.queue.slice(0, BATCH);
        try {
          await this.insert(batch);
        } catch (error) {
          if (isRetryable(error)) continue;
          if (this.health.failed(error, "usage write")) {
            for (const waiting of this.queue) this.release(waiting);
            // Away: written when it is back. Busy: tried again in a moment.
            if (this.health.up) this.retrySoon();
            return;
          }
          // Not the database being away: said once, tried again in a second (nothing is dropped).
          if (!this.complained) this.log(`usage: could not store ${batch.length} records: ${(error as Error).message}; trying again`);
          this.complained = true;
          for (const waiting of this.queue) this.release(waiting);
          this.retrySoon();
          return;
        }
        this.complained = false;
        this.queue.splice(0, batch.length);
        for (const waiting of batch) this.release(waiting);
      }
    } finally {
      this.writing = false;
    }
  }
}

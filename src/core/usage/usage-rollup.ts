/**
 * Usage counted per hour, API key and model: what the server records as it serves, what the
 * usage log keeps after compaction, and what the console's Usage page draws.
 */

/** One served API request. */
export interface UsageEvent {
  /** When it was served, ms since the epoch. */
  readonly t: number;
  /** The API key's id. */
  readonly key: string;
  /** The model it ran on; null for requests that reach none (listing models, bad requests). */
  readonly model: string | null;
  /** The HTTP status it was answered with (200 also for a stream that ended early). */
  readonly status: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly images: number;
}

/** The counts of one hour for one key and model ("" when no model). */
export interface UsageBucket {
  /** Start of the UTC hour, ms since the epoch. */
  hour: number;
  key: string;
  model: string;
  requests: number;
  /** Requests answered with a 4xx or 5xx status. */
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  images: number;
}

export interface UsageSnapshot {
  readonly buckets: readonly UsageBucket[];
  /** Last request per key id, ms since the epoch. */
  readonly lastUsed: Readonly<Record<string, number>>;
}

const HOUR_MS = 3_600_000;

export const hourOf = (t: number): number => Math.floor(t / HOUR_MS) * HOUR_MS;

const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** Checks a value read back from disk; undefined when it is not a usage event. */
export function asUsageEvent(value: unknown): UsageEvent | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.t !== "number" || !Number.isFinite(v.t) || typeof v.key !== "string") return undefined;
  if (v.model !== null && typeof v.model !== "string") return undefined;
  return {
    t: v.t,
    key: v.key,
    model: v.model,
    status: typeof v.status === "number" ? v.status : 200,
    prompt_tokens: count(v.prompt_tokens),
    completion_tokens: count(v.completion_tokens),
    images: count(v.images),
  };
}

export class UsageRollup {
  private readonly byId = new Map<string, UsageBucket>();
  private readonly last = new Map<string, number>();

  add(event: UsageEvent): void {
    const hour = hourOf(event.t);
    const bucket = this.bucket(hour, event.key, event.model ?? "");
    bucket.requests += 1;
    if (event.status >= 400) bucket.errors += 1;
    bucket.prompt_tokens += event.prompt_tokens;
    bucket.completion_tokens += event.completion_tokens;
    bucket.images += event.images;
    this.touch(event.key, event.t);
  }

  /** Adds a compacted snapshot (the rollup file) to what is counted. */
  merge(snapshot: UsageSnapshot): void {
    for (const b of snapshot.buckets) {
      const bucket = this.bucket(b.hour, b.key, b.model);
      bucket.requests += count(b.requests);
      bucket.errors += count(b.errors);
      bucket.prompt_tokens += count(b.prompt_tokens);
      bucket.completion_tokens += count(b.completion_tokens);
      bucket.images += count(b.images);
    }
    for (const [key, t] of Object.entries(snapshot.lastUsed)) if (typeof t === "number") this.touch(key, t);
  }

  /** Buckets from `since` (ms) on, oldest first. */
  buckets(since = Number.NEGATIVE_INFINITY): UsageBucket[] {
    return [...this.byId.values()]
      .filter((b) => b.hour + HOUR_MS > since)
      .sort((a, b) => a.hour - b.hour || a.key.localeCompare(b.key) || a.model.localeCompare(b.model))
      .map((b) => ({ ...b }));
  }

  lastUsed(key: string): number | undefined {
    return this.last.get(key);
  }

  snapshot(): UsageSnapshot {
    return { buckets: this.buckets(), lastUsed: Object.fromEntries(this.last) };
  }

  private bucket(hour: number, key: string, model: string): UsageBucket {
    const id = JSON.stringify([hour, key, model]);
    let bucket = this.byId.get(id);
    if (!bucket) {
      bucket = { hour, key, model, requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, images: 0 };
      this.byId.set(id, bucket);
    }
    return bucket;
  }

  private touch(key: string, t: number): void {
    if (t > (this.last.get(key) ?? Number.NEGATIVE_INFINITY)) this.last.set(key, t);
  }
}

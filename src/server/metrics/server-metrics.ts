// Every Prometheus metric of one server, in one registry of its own (GET /metrics writes it in
// Prometheus' text format through prom-client). Counters and histograms are updated as requests
// end; gauges read their sources only when scraped, so serving costs a few increments per request.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { FastifyRequest } from "fastify";
import "./request-labels";

/** One connection pool as node-postgres counts it: connections (idle among them), and queries queued for one. */
export interface PoolGauges {
  total: number;
  idle: number;
  waiting: number;
}

/** What the database-backed store reports (undefined for files: those gauges stay empty). */
export interface DatabaseGauges {
  up: boolean;
  /** The pool of keys, sessions and usage, and the one of rate-limit admissions. */
  pools: { main: PoolGauges; admissions: PoolGauges };
  /** Usage records taken and not stored yet. */
  usageQueue: number;
  keyCacheEntries: number;
}

/** Where the gauges come from; read at each scrape. */
export interface MetricSources {
  /** Requests being answered now (streams included). */
  inFlight(): number;
  queues(): { text: number; images: number };
  upstreams(): readonly { name: string; healthy: boolean }[];
  database(): DatabaseGauges | undefined;
}

/** What the store counts as it works. */
export interface StoreMetrics {
  databaseError(operation: string): void;
  keyCache(result: "hit" | "miss" | "stale"): void;
  /** A usage record the database refused as it is, set aside so that the records after it are stored. */
  usageRejected(): void;
}

const noSources: MetricSources = { inFlight: () => 0, queues: () => ({ text: 0, images: 0 }), upstreams: () => [], database: () => undefined };

export class ServerMetrics implements StoreMetrics {
  readonly registry = new Registry();
  private sources = noSources;
  private readonly requests: Counter<"route" | "model" | "upstream" | "status">;
  private readonly firstToken: Histogram<"route" | "model" | "upstream">;
  private readonly duration: Histogram<"route" | "model" | "upstream" | "status">;
  private readonly tokens: Counter<"kind" | "model" | "upstream">;
  private readonly limited: Counter;
  private readonly dbErrors: Counter<"operation">;
  private readonly cache: Counter<"result">;
  private readonly rejected: Counter;

  constructor(options: { processMetrics?: boolean; version?: string } = {}) {
    const registers = [this.registry];
    // Prometheus' convention: a constant 1 whose label says what runs (replicas mid-upgrade differ).
    new Gauge({ name: "wisp_build_info", help: "Always 1; its version label is this server's version.", labelNames: ["version"], registers }).set({ version: options.version ?? "unknown" }, 1);
    this.requests = new Counter({ name: "wisp_requests_total", help: "Requests answered, by route, model, upstream and HTTP status.", labelNames: ["route", "model", "upstream", "status"], registers });
    this.firstToken = new Histogram({
      name: "wisp_time_to_first_token_seconds",
      help: "Streams: time from the request to its first token.",
      labelNames: ["route", "model", "upstream"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.duration = new Histogram({
      name: "wisp_request_duration_seconds",
      help: "Time from the request to the end of its answer.",
      labelNames: ["route", "model", "upstream", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.tokens = new Counter({ name: "wisp_tokens_total", help: "Tokens counted against keys, by kind (prompt or completion), model and upstream.", labelNames: ["kind", "model", "upstream"], registers });
    this.limited = new Counter({ name: "wisp_rate_limited_requests_total", help: "Requests refused with 429 by --rate-limit.", registers });
    this.dbErrors = new Counter({ name: "wisp_database_errors_total", help: "Database operations that failed, by operation.", labelNames: ["operation"], registers });
    this.cache = new Counter({ name: "wisp_key_cache_total", help: "API key checks: hit (from this replica's cache), miss (asked the database), stale (from the cache while the database was away).", labelNames: ["result"], registers });
    this.rejected = new Counter({ name: "wisp_usage_records_rejected_total", help: "Usage records the database refused as they were (a malformed count): set aside and logged, so that later records are stored.", registers });
    const sources = () => this.sources;
    new Gauge({
      name: "wisp_requests_in_flight",
      help: "Requests being answered now, streams included (this scrape too).",
      registers,
      collect() {
        this.set(sources().inFlight());
      },
    });
    new Gauge({
      name: "wisp_queue_depth",
      help: "Requests waiting for the local engines, by engine.",
      labelNames: ["engine"],
      registers,
      collect() {
        const q = sources().queues();
        this.set({ engine: "text" }, q.text);
        this.set({ engine: "images" }, q.images);
      },
    });
    new Gauge({
      name: "wisp_upstream_up",
      help: "Whether each upstream engine answers its health check (1) or not (0).",
      labelNames: ["upstream"],
      registers,
      collect() {
        this.reset();
        for (const u of sources().upstreams()) this.set({ upstream: u.name }, u.healthy ? 1 : 0);
      },
    });
    new Gauge({
      name: "wisp_database_up",
      help: "Whether the database answers (1) or not (0); absent without --database.",
      registers,
      collect() {
        this.reset();
        const db = sources().database();
        if (db) this.set(db.up ? 1 : 0);
      },
    });
    // The states partition each pool's connections, so sum() is the total; queued queries are no
    // connections, and have a gauge of their own.
    new Gauge({
      name: "wisp_database_pool_connections",
      help: "This replica's database connections, by pool (main: keys, sessions, usage; admissions: rate limits) and state (idle or active).",
      labelNames: ["pool", "state"],
      registers,
      collect() {
        this.reset();
        const db = sources().database();
        if (!db) return;
        for (const [pool, p] of Object.entries(db.pools)) {
          this.set({ pool, state: "idle" }, p.idle);
          this.set({ pool, state: "active" }, p.total - p.idle);
        }
      },
    });
    new Gauge({
      name: "wisp_database_pool_waiting_requests",
      help: "Queries waiting for a free connection of this replica's pool, by pool.",
      labelNames: ["pool"],
      registers,
      collect() {
        this.reset();
        const db = sources().database();
        if (!db) return;
        for (const [pool, p] of Object.entries(db.pools)) this.set({ pool }, p.waiting);
      },
    });
    new Gauge({
      name: "wisp_usage_queue_records",
      help: "Usage records taken and not yet stored in the database (kept while it is away).",
      registers,
      collect() {
        this.set(sources().database()?.usageQueue ?? 0);
      },
    });
    new Gauge({
      name: "wisp_key_cache_entries",
      help: "API keys in this replica's cache.",
      registers,
      collect() {
        this.set(sources().database()?.keyCacheEntries ?? 0);
      },
    });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Where the gauges are read from (set once the engines, upstreams and store exist). */
  setSources(sources: MetricSources): void {
    this.sources = sources;
  }

  /** A request's answer ended (or its client left): count and time it. */
  requestEnded(request: FastifyRequest, status: number, elapsedMs: number): void {
    const route = request.routeOptions.url ?? "unknown";
    const model = request.wispModel ?? "";
    const upstream = request.wispUpstream ?? "";
    this.requests.inc({ route, model, upstream, status: String(status) });
    this.duration.observe({ route, model, upstream, status: String(status) }, elapsedMs / 1000);
    if (request.wispFirstTokenAt !== null) {
      const sinceFirst = performance.now() - request.wispFirstTokenAt;
      this.firstToken.observe({ route, model, upstream }, Math.max(0, elapsedMs - sinceFirst) / 1000);
    }
  }

  served(model: string, upstream: string | null, promptTokens: number, completionTokens: number): void {
    // prom-client throws on anything but a finite number.
    if (Number.isFinite(promptTokens) && promptTokens > 0) this.tokens.inc({ kind: "prompt", model, upstream: upstream ?? "" }, promptTokens);
    if (Number.isFinite(completionTokens) && completionTokens > 0) this.tokens.inc({ kind: "completion", model, upstream: upstream ?? "" }, completionTokens);
  }

  rateLimited(): void {
    this.limited.inc();
  }

  databaseError(operation: string): void {
    this.dbErrors.inc({ operation });
  }

  keyCache(result: "hit" | "miss" | "stale"): void {
    this.cache.inc({ result });
  }

  usageRejected(): void {
    this.rejected.inc();
  }

  /** The text GET /metrics answers. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

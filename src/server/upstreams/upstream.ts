// One upstream engine: its models, whether it is in rotation, its latency and outstanding
// requests. Health is its GET /models answering; a failed check (or a refused connection seen by
// a forwarded request) takes it out, and it is checked again after a backoff that doubles.
import type { UpstreamStatus } from "../../core/api/upstream-status";
import type { UpstreamSpec } from "./upstream-config";
import { endpointOf, upstreamCall, type Endpoint, type UpstreamTransport } from "./upstream-transport";

export interface UpstreamTiming {
  /** Checks of a healthy upstream (which also refresh its model list), ms. */
  refreshMs: number;
  /** First wait after a failure, ms; doubles per failure up to refreshMs. */
  backoffMs: number;
  /** A health check that takes longer fails, ms. */
  checkTimeoutMs: number;
}

/** What an upstream's /models says of a model (context_length from vLLM's max_model_len too). */
export interface ListedModel {
  id: string;
  created?: number;
  kind?: string;
  context_length?: number;
}

function listedModel(raw: Record<string, unknown>): ListedModel | undefined {
  if (typeof raw.id !== "string") return undefined;
  const meta = raw.meta as Record<string, unknown> | undefined;
  const context = [raw.context_length, raw.max_model_len, meta?.n_ctx_train].find((v) => Number.isInteger(v) && (v as number) > 0) as number | undefined;
  return {
    id: raw.id,
    ...(Number.isInteger(raw.created) ? { created: raw.created as number } : {}),
    ...(raw.kind === "text" || raw.kind === "image" ? { kind: raw.kind } : {}),
    ...(context === undefined ? {} : { context_length: context }),
  };
}

export class Upstream {
  readonly name: string;
  readonly baseUrl: string;
  readonly endpoint: Endpoint;
  /** The models it serves, as last listed. */
  listed: ListedModel[] = [];
  healthy = false;
  outstanding = 0;
  latencyMs: number | null = null;
  lastError: string | null = null;
  checkedAt: number | null = null;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private checking: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly spec: UpstreamSpec,
    /** The Authorization header for the engine, from spec.keyEnv's variable; never shown. */
    readonly authorization: string | undefined,
    readonly transport: UpstreamTransport,
    private readonly timing: UpstreamTiming,
  ) {
    this.name = spec.name;
    this.baseUrl = spec.baseUrl;
    this.endpoint = endpointOf(spec.baseUrl);
  }

  /** Checks now (unless a check is under way) and schedules the next one. */
  check(): Promise<void> {
    this.checking ??= this.runCheck().finally(() => {
      this.checking = undefined;
      this.schedule();
    });
    return this.checking;
  }

  /** A forwarded request could not connect: out of rotation until a check succeeds. */
  markDown(reason: string): void {
    if (!this.healthy) return;
    this.healthy = false;
    this.lastError = reason;
    this.failures = 1;
    this.schedule();
  }

  status(): UpstreamStatus {
    return {
      name: this.name,
      base_url: this.baseUrl,
      healthy: this.healthy,
      models: this.listed.map((m) => m.id),
      latency_ms: this.latencyMs === null ? null : Math.round(this.latencyMs * 10) / 10,
      outstanding: this.outstanding,
      last_error: this.lastError,
      checked_at: this.checkedAt,
    };
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
  }

  private async runCheck(): Promise<void> {
    const started = performance.now();
    try {
      const answer = await upstreamCall(this.transport, this, "GET", "/models", undefined, this.timing.checkTimeoutMs);
      if (answer.status !== 200) throw new Error(`GET /models answered ${answer.status}`);
      const data = (JSON.parse(answer.body.toString("utf8")) as { data?: unknown }).data;
      if (!Array.isArray(data)) throw new Error("GET /models answered without a data list");
      const listed = (data as Record<string, unknown>[]).map(listedModel).filter((m) => m !== undefined);
      const wanted = this.spec.models;
      this.listed = wanted ? listed.filter((m) => wanted.includes(m.id)) : listed;
      this.latencyMs = performance.now() - started;
      this.healthy = true;
      this.lastError = null;
      this.failures = 0;
    } catch (error) {
      this.healthy = false;
      this.lastError = (error as Error).message;
      this.failures++;
    }
    this.checkedAt = Date.now();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.disposed) return;
    const wait = this.healthy ? this.timing.refreshMs : Math.min(this.timing.refreshMs, this.timing.backoffMs * 2 ** Math.max(0, this.failures - 1));
    this.timer = setTimeout(() => void this.check(), wait);
    this.timer.unref();
  }
}

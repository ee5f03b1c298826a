import { isCancelledError } from "../base/cancellation";
import { systemClock, type Clock } from "../base/clock";
import { CompletionCache, type CacheHit } from "./completion-cache";
import { defaultBudget, type ContextBudget } from "./context";
import type { ContextRing } from "./context-ring";
import { AdaptiveDebounce } from "./debounce";
import { ErrorBackoff } from "./error-backoff";
import { firstLineOnly, observe, showFirstLineEarly, stopAtLines, stopAtLoops, stopAtStrings, withoutFence, type FirstShown } from "./filters";
import { InflightRequests, waitOn } from "./inflight";
import { multilineJudge } from "./line-rules";
import { postprocess } from "./postprocess";
import { planRequest, type RequestPlan } from "./request-plan";
import { streamStops } from "./templates";
import type { CompletionInput, CompletionOutcome, CompletionSettings, CompletionSource, CompletionStream } from "./types";
import { PromptWarmUp } from "./warm-up";

export interface PipelineDeps {
  readonly stream: CompletionStream;
  readonly settings: () => CompletionSettings;
  readonly clock?: Clock;
  readonly ring?: ContextRing;
  readonly budget?: ContextBudget;
  /** Called when a request is actually sent; the returned function when it ends (a spinner). */
  readonly onRequest?: () => () => void;
  /**
   * A multi-line suggestion shown early as its first line has finished has ended with more than
   * that line (all of it, or the lines it had when it was cut): it is now cached, so asking again
   * where a partial outcome was shown (its position, or one typed into that line since) shows it.
   */
  readonly onMoreText?: () => void;
}

/** How long after its first line a multi-line suggestion may wait for the rest before showing. */
const earlyAfterMs = 50;

type Result = { [K in CompletionOutcome["kind"]]: Omit<Extract<CompletionOutcome, { kind: K }>, "latencyMs"> }[CompletionOutcome["kind"]];

/**
 * Ghost text for a cursor position: cache and type-through first, then a running request the user
 * is typing into, then (after an adaptive debounce) a new streamed request, filtered while it
 * streams and post-processed. Every way out is a typed outcome with its latency.
 */
export class CompletionPipeline {
  private readonly clock: Clock;
  private readonly budget: ContextBudget;
  private readonly cache = new CompletionCache();
  private readonly debounce: AdaptiveDebounce;
  private readonly inflight: InflightRequests;
  private readonly backoff: ErrorBackoff;
  private readonly warmUp: PromptWarmUp;

  constructor(private readonly deps: PipelineDeps) {
    this.clock = deps.clock ?? systemClock;
    this.budget = deps.budget ?? defaultBudget;
    this.debounce = new AdaptiveDebounce(this.clock);
    this.backoff = new ErrorBackoff(this.clock);
    this.warmUp = new PromptWarmUp(deps.stream);
    this.inflight = new InflightRequests(this.clock, {
      graceMs: () => Math.max(300, 2 * deps.settings().debounceMs),
      maxTyped: 64,
    });
  }

  async complete(input: CompletionInput, signal: AbortSignal): Promise<CompletionOutcome> {
    const started = this.clock.now();
    const result = await this.run(input, signal).catch((error: unknown) => failure(error, signal));
    return { ...result, latencyMs: this.clock.now() - started } as CompletionOutcome;
  }

  /**
   * Has the server evaluate the prompt of a completion at `input` without generating anything
   * (a file opened or activated, the cursor moved far), so that the first suggestion there is as
   * quick as later ones. Never shown, never an error; skipped while requests are paused after one.
   */
  warm(input: CompletionInput): void {
    if (this.backoff.current()) return;
    try {
      const plan = planRequest(input, this.deps.settings(), this.deps.ring?.chunksFor(input.uri, this.budget.extraChars) ?? [], this.budget);
      this.warmUp.start(plan.scope, plan.request);
    } catch {
      // No model or an unknown template: the next completion reports it.
    }
  }

  dispose(): void {
    this.inflight.dispose();
    this.warmUp.dispose();
  }

  private async run(input: CompletionInput, signal: AbortSignal): Promise<Result> {
    if (!input.manual) this.debounce.keystroke(input.editedAt !== undefined ? Math.min(input.editedAt, this.clock.now()) : undefined);
    const settings = this.deps.settings();
    const plan = planRequest(input, settings, this.deps.ring?.chunksFor(input.uri, this.budget.extraChars) ?? [], this.budget);

    const hit = this.cache.get(plan);
    if (hit && !(input.manual && hit.text === "")) {
      // A block's first line, its request still streaming: this keystroke keeps that request going,
      // and its end replaces the line in the cache (see onMoreText); left to itself, the request
      // would be stopped for want of anyone waiting, and the first line would stay for good.
      const streaming = hit.partial && this.inflight.follow(plan, signal);
      return fromCache(hit, plan, streaming);
    }

    const joined = this.inflight.join(plan, signal);
    if (joined) {
      const text = await waitOn(joined.text, signal);
      // The running request cached its own suggestion, post-processed at its cursor: a block
      // stays a block, where this cursor (now mid-line) would keep one line of it, for good.
      const own = text !== undefined ? this.cache.get(plan) : undefined;
      if (own) return { ...fromCache(own, plan, false), ...(own.text !== "" ? { source: "reused" as const } : {}) };
      if (text !== undefined) return this.present(text.slice(joined.typed.length), plan, "reused");
    }
    this.inflight.abortUnusable(plan);

    if (!input.manual) {
      const paused = this.backoff.current();
      if (paused) return { kind: "backoff", ...paused };
      if (!(await this.debounce.wait(settings.debounceMs, plan.cursor.atBoundary, signal))) return { kind: "debounced" };
      // A request that failed during the wait (an explicit trigger's) pauses this one too.
      const pausedSince = this.backoff.current();
      if (pausedSince) return { kind: "backoff", ...pausedSince };
    }
    return this.request(plan, signal);
  }

  /**
   * A new request. Its stream's last stage says what to show first: the whole suggestion, or a
   * block's first line early, cached as partial until the request ends (see fetch).
   */
  private async request(plan: RequestPlan, signal: AbortSignal): Promise<Result> {
    await waitOn(this.warmUp.settled(plan.scope), signal);
    // Until something is shown, a failure or cancellation is this request's; after it, nobody's.
    const first = await new Promise<FirstShown>((resolve, reject) => {
      this.backoff.track(this.inflight.start(plan, (s, onText) => this.fetch(plan, s, onText, resolve), signal)).catch(reject);
    });
    const result = this.present(first.text, plan, "network", first.partial);
    return first.partial && result.kind === "shown" ? { ...result, partial: true } : result;
  }

  /**
   * Streams the request through the filters; the result is cached even if nobody waits. A block
   * shown early by its first line ends with the whole of it in the cache, or, when its stream is
   * cut, the lines it had: either replaces the partial entry, and onMoreText says so.
   */
  private async fetch(plan: RequestPlan, signal: AbortSignal, onText: (text: string) => void, show: (first: FirstShown) => void): Promise<string> {
    const ended = this.deps.onRequest?.();
    let early: string | undefined;
    let text = "";
    try {
      // The in-flight registry sees text as it streams, before lines are buffered.
      // Loops are cut after observe: the in-flight reuse watches the text as it arrives, unheld.
      const cut = stopAtStrings(this.deps.stream(plan.request, signal), streamStops(plan.template));
      let stream = stopAtLoops(observe(plan.fencesAreText ? cut : withoutFence(cut), onText));
      stream = plan.cursor.multiline ? stopAtLines(stream, multilineJudge(plan.cursor, plan.maxLines)) : firstLineOnly(stream);
      stream = showFirstLineEarly(stream, earlyAfterMs, this.clock, (first) => {
        if (first.partial) early = first.text;
        show(first);
      });
      for await (const delta of stream) text += delta;
      this.cache.set(plan, postprocess(text, plan.cursor, plan));
      return text;
    } catch (error) {
      // Whole lines only (stopAtLines passes nothing else), at least the one already shown.
      if (early !== undefined) this.cache.set(plan, postprocess(text, plan.cursor, plan));
      throw error;
    } finally {
      ended?.();
      if (early !== undefined && text.trimEnd() !== early.trimEnd()) this.deps.onMoreText?.();
    }
  }

  private present(raw: string, plan: RequestPlan, source: CompletionSource, partial = false): Result {
    const suggestion = postprocess(raw, plan.cursor, plan);
    this.cache.set(plan, suggestion, partial);
    if (suggestion.text !== "") return { kind: "shown", ...suggestion, source, multiline: suggestion.text.includes("\n") };
    return { kind: "empty", reason: raw.trim() === "" ? "model-empty" : "filtered" };
  }
}

/** `streaming`: the hit is a block's first line whose request still runs, so the rest will come. */
function fromCache(hit: CacheHit, plan: RequestPlan, streaming: boolean): Result {
  if (hit.text === "") return { kind: "empty", reason: "cached-empty" };
  const source = hit.typed > 0 ? "type-through" : "cache";
  const multiline = plan.cursor.multiline && hit.text.includes("\n");
  return { kind: "shown", text: hit.text, replace: hit.replace, source, multiline, ...(streaming ? { partial: true } : {}) };
}

function failure(error: unknown, signal: AbortSignal): Result {
  const kind = (error as { kind?: unknown })?.kind;
  if (signal.aborted || isCancelledError(error) || kind === "cancelled") return { kind: "cancelled" };
  return {
    kind: "error",
    errorKind: typeof kind === "string" ? kind : "unknown",
    message: error instanceof Error ? error.message : String(error),
  };
}

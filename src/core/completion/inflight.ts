import { cancelledError } from "../base/cancellation";
import type { Clock } from "../base/clock";
import { leadingClosers } from "./brackets";
import { closerChange, suffixHeadOf, type SuffixHead } from "./suffix-head";
import { anchorOf, extendsAnchor, type PrefixAnchor } from "./prefix-anchor";

/** The context a request was made for. */
export interface InflightKey {
  readonly scope: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface JoinedRequest {
  /** Characters the user typed since the request was made; its text must start with them. */
  readonly typed: string;
  /**
   * The request's whole (filtered) text; undefined as soon as the stream contradicts `typed`,
   * so that the caller can ask again at once instead of waiting for a useless answer.
   */
  readonly text: Promise<string | undefined>;
}

/** Produces a request's text; `onText` reports what has streamed so far. */
export type InflightRun = (signal: AbortSignal, onText: (textSoFar: string) => void) => Promise<string>;

interface Running {
  readonly scope: string;
  readonly suffix: SuffixHead;
  readonly anchor: PrefixAnchor;
  readonly controller: AbortController;
  result: Promise<string>;
  text: string;
  /** Called on every streamed update (joined callers watching for a contradiction). */
  readonly watchers: Set<() => void>;
  finished: boolean;
  consumers: number;
  grace: AbortController | undefined;
}

export interface InflightOptions {
  /** How long a request nobody waits for may keep running, for a next keystroke to pick it up. */
  readonly graceMs: () => number;
  /** The most characters typed into a prediction for which it is still joined. */
  readonly maxTyped: number;
}

/**
 * The running request, shared: a keystroke that types into its prediction (or into a prediction
 * not streamed that far yet) joins it instead of cancelling it and starting another. It is
 * aborted as soon as it shows it can no longer be used, or when nobody has waited for it for a
 * grace period.
 */
export class InflightRequests {
  private current: Running | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly options: InflightOptions,
  ) {}

  /** Joins the running request when `key` extends its context by text its prediction agrees with. */
  join(key: InflightKey, signal: AbortSignal): JoinedRequest | undefined {
    const usable = this.usableFor(key);
    if (!usable) return undefined;
    const { running, typed } = usable;
    this.attach(running, signal);
    const text = new Promise<string | undefined>((resolve, reject) => {
      const settle = (value: string | undefined) => {
        running.watchers.delete(check);
        resolve(value);
      };
      const check = () => {
        if (!agrees(running.text, typed)) settle(undefined);
      };
      running.watchers.add(check);
      running.result.then((final) => settle(final.startsWith(typed) ? final : undefined), (error: unknown) => {
        running.watchers.delete(check);
        reject(error);
      });
    });
    return { typed, text };
  }

  /**
   * Keeps the running request going while `signal`'s caller waits for nothing from it, when `key`
   * types into its prediction: the caller shows what it has now, and the rest comes by the cache.
   * False when no running request fits.
   */
  follow(key: InflightKey, signal: AbortSignal): boolean {
    const usable = this.usableFor(key);
    if (usable) this.attach(usable.running, signal);
    return usable !== undefined;
  }

  /** Aborts the running request unless `key` could still use it. */
  abortUnusable(key: InflightKey): void {
    const running = this.current;
    if (!running || running.finished || this.usableFor(key)) return;
    this.stop(running);
  }

  /** Starts a request for `key` (replacing any running one) and waits for it on `signal`. */
  start(key: InflightKey, run: InflightRun, signal: AbortSignal): Promise<string> {
    if (this.current) this.stop(this.current);
    const controller = new AbortController();
    const running: Running = {
      scope: key.scope,
      suffix: suffixHeadOf(key.suffix, 200),
      anchor: anchorOf(key.prefix, 400),
      controller,
      text: "",
      watchers: new Set(),
      finished: false,
      consumers: 0,
      grace: undefined,
      result: Promise.resolve(""),
    };
    const onText = (text: string) => {
      running.text = text;
      for (const watch of [...running.watchers]) watch();
    };
    const result = run(controller.signal, onText).finally(() => {
      running.finished = true;
      running.grace?.abort();
      controller.abort(); // whatever happened, stop generating upstream
      if (this.current === running) this.current = undefined;
    });
    result.catch(() => undefined); // consumers that left must not leave an unhandled rejection
    running.result = result;
    this.current = running;
    this.attach(running, signal);
    return waitOn(result, signal);
  }

  dispose(): void {
    if (this.current) this.stop(this.current);
  }

  /** The running request, when `key` is in its context and types into its prediction (`typed`). */
  private usableFor(key: InflightKey): { running: Running; typed: string } | undefined {
    const running = this.current;
    if (!running || running.finished || !this.sameContext(running, key)) return undefined;
    const typed = this.typedInto(running, key.prefix);
    return typed === undefined ? undefined : { running, typed };
  }

  /** The same file and text after the cursor, give or take closers the editor auto-inserted or the user typed over since. */
  private sameContext(running: Running, key: InflightKey): boolean {
    return running.scope === key.scope && closerChange(running.suffix, key.suffix, leadingClosers(running.suffix.head).length) !== undefined;
  }

  /** What the user typed since `running` started, if its text so far does not contradict it. */
  private typedInto(running: Running, prefix: string): string | undefined {
    for (let k = 0; k <= this.options.maxTyped; k++) {
      if (!extendsAnchor(running.anchor, prefix, k)) continue;
      const typed = prefix.slice(prefix.length - k);
      if (agrees(running.text, typed)) return typed;
    }
    return undefined;
  }

  private attach(running: Running, signal: AbortSignal): void {
    running.consumers++;
    running.grace?.abort();
    running.grace = undefined;
    const leave = () => {
      running.consumers--;
      if (running.consumers === 0 && !running.finished) this.startGrace(running);
    };
    if (signal.aborted) leave();
    else signal.addEventListener("abort", leave, { once: true });
  }

  private startGrace(running: Running): void {
    const grace = new AbortController();
    running.grace = grace;
    this.clock.sleep(this.options.graceMs(), grace.signal).then(
      () => {
        if (running.consumers === 0) this.stop(running);
      },
      () => undefined, // someone joined, or the request ended
    );
  }

  private stop(running: Running): void {
    running.grace?.abort();
    running.controller.abort();
    if (this.current === running) this.current = undefined;
  }
}

/** The streamed text and the typed text could still be the same suggestion. */
function agrees(streamed: string, typed: string): boolean {
  return streamed.startsWith(typed) || typed.startsWith(streamed);
}

/** `promise`, or an AbortError as soon as `signal` aborts (the work itself goes on). */
export function waitOn<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

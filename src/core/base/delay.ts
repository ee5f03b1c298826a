import { cancelledError } from "./cancellation";
import type { Disposable } from "./disposable";

/** Resolves after `ms`; rejects with an AbortError as soon as `signal` aborts (and frees the timer). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface Debounced<A extends unknown[]> extends Disposable {
  /** Schedules `fn` with these arguments `ms` after the last call; earlier pending calls are dropped. */
  (...args: A): void;
  /** Drops the pending call, if any. */
  cancel(): void;
  /** Runs the pending call now, if any. */
  flush(): void;
  readonly pending: boolean;
}

/** Trailing-edge debounce: only the last call of a burst runs. Disposing cancels the pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastArgs: A | undefined;

  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    lastArgs = undefined;
  };
  const flush = () => {
    const args = lastArgs;
    cancel();
    if (args !== undefined) fn(...args);
  };
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    lastArgs = args;
    timer = setTimeout(flush, ms);
  };
  // defineProperties, not Object.assign: assign would copy the getter's current value once.
  return Object.defineProperties(debounced, {
    cancel: { value: cancel },
    flush: { value: flush },
    dispose: { value: cancel },
    pending: { get: () => timer !== undefined },
  }) as Debounced<A>;
}

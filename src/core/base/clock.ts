import { delay } from "./delay";

/**
 * Time as the completion pipeline sees it. A seam so that debounce, reuse and cache behaviour
 * can be tested with a fake clock; production uses `systemClock`.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with an AbortError when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => delay(ms, signal),
};

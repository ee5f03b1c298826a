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

/**
 * Milliseconds since this call, on `clock` (the monotonic one by default): a duration that the
 * wall clock set back or forward meanwhile (by hand, an NTP sync, a time zone's change on some
 * systems) does not make negative or hours long.
 */
export function stopwatch(clock: () => number = () => performance.now()): () => number {
  const start = clock();
  return () => clock() - start;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => delay(ms, signal),
};

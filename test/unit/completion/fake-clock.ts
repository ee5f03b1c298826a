import { cancelledError } from "../../../src/core/base/cancellation";
import type { Clock } from "../../../src/core/base/clock";

interface Timer {
  readonly at: number;
  readonly fire: () => void;
}

/** Manual time for the pipeline's clock seam: nothing happens until the test advances it. */
export class FakeClock implements Clock {
  private time = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(cancelledError());
      const timer: Timer = {
        at: this.time + ms,
        fire: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(cancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Moves time forward, firing due timers in order and letting the work they start settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await settle();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fire();
      await settle();
    }
    this.time = end;
    await settle();
  }

  get pendingTimers(): number {
    return this.timers.length;
  }
}

/** Lets promise chains and async generators run until they wait on something. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

import { LinkedAbortController } from "../core/base/cancellation";
import type { Disposable } from "../core/base/disposable";

/**
 * The lifetime of one HTTP call: aborts it when the caller's signal aborts, when the idle timer
 * fires (no bytes for `idleMs` while streaming), or when the call ends (dispose closes the
 * connection if the consumer stopped early).
 */
export class RequestScope implements Disposable {
  private readonly link: LinkedAbortController;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private idleExpired = false;

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    this.link = new LinkedAbortController(callerSignal);
  }

  get signal(): AbortSignal {
    return this.link.signal;
  }

  get cancelledByCaller(): boolean {
    return this.callerSignal?.aborted === true;
  }

  get timedOut(): boolean {
    return this.idleExpired;
  }

  /** (Re)starts the idle timer; call on every chunk received. */
  touch(idleMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.idleExpired = true;
      this.link.abort();
    }, idleMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.link.abort();
    this.link.dispose();
  }
}

import { toDisposable, type Disposable } from "./disposable";

/** The shape of VS Code's CancellationToken, so that core stays free of `vscode`. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable;
}

/** The error a cancelled operation rejects with (the same name fetch uses). */
export function cancelledError(message = "The operation was cancelled."): Error {
  return new DOMException(message, "AbortError");
}

export function isCancelledError(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError"
  );
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

/**
 * An AbortController that also aborts when any of the given signals (or tokens) aborts, with the
 * signal's reason. Dispose it when the operation ends, so the parents stop holding its listeners
 * (AbortSignal.any's signals stay reachable from a long-lived parent until it aborts).
 */
export class LinkedAbortController implements Disposable {
  private readonly controller = new AbortController();
  private readonly unlinks: Disposable[] = [];

  constructor(...parents: ReadonlyArray<AbortSignal | CancellationTokenLike | undefined>) {
    for (const parent of parents) {
      if (parent !== undefined) this.link(parent);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  dispose(): void {
    for (const unlink of this.unlinks.splice(0)) unlink.dispose();
  }

  private link(parent: AbortSignal | CancellationTokenLike): void {
    if ("aborted" in parent) {
      const abort = () => this.controller.abort(parent.reason);
      if (parent.aborted) return abort();
      parent.addEventListener("abort", abort, { once: true });
      this.unlinks.push(toDisposable(() => parent.removeEventListener("abort", abort)));
    } else {
      const abort = () => this.controller.abort();
      if (parent.isCancellationRequested) return abort();
      this.unlinks.push(parent.onCancellationRequested(abort));
    }
  }
}

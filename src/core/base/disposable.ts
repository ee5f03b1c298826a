/** Anything that holds a resource (listener, timer, connection) until disposed. */
export interface Disposable {
  dispose(): void;
}

/** Wraps a cleanup function; it runs at most once. */
export function toDisposable(cleanup: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      cleanup();
    },
  };
}

/**
 * Owns a set of disposables and disposes them together, newest first (the reverse of setup).
 * Adding to a disposed store disposes the item at once, so late registrations cannot leak.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Disposes every item even when some throw; then rethrows the first error. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Several disposables failed");
  }
}

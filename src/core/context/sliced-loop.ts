/**
 * Runs work item by item in slices of a few milliseconds, yielding to the host between slices, so
 * a long job (indexing a workspace) never holds the event loop for longer than one slice.
 */
export interface SlicedLoopOptions {
  readonly sliceMs: number;
  /** Lets the host run what is waiting (e.g. a setImmediate promise). */
  readonly yieldToHost: () => Promise<void>;
  /** Called after each slice with how many items are done; return false to stop. */
  readonly onSlice?: (done: number) => boolean | void;
  readonly now?: () => number;
}

/** Resolves true when every item was done, false when onSlice stopped the loop. */
export async function slicedLoop<T>(items: readonly T[], work: (item: T) => void | Promise<void>, options: SlicedLoopOptions): Promise<boolean> {
  const now = options.now ?? (() => performance.now());
  let sliceStart = now();
  for (let i = 0; i < items.length; i++) {
    await work(items[i]!);
    if (now() - sliceStart >= options.sliceMs) {
      if (options.onSlice?.(i + 1) === false) return false;
      await options.yieldToHost();
      sliceStart = now();
    }
  }
  return true;
}

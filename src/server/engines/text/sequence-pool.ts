// Hands out a context's sequences to requests, FIFO, and keeps each sequence's evaluated tokens
// between requests so that a prompt sharing a prefix with an earlier one only evaluates the rest.
import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp";
import { EngineBusyError } from "../../engine-input-error";

interface Waiter {
  count: number;
  prompt: readonly Token[];
  resolve: (sequences: LlamaContextSequence[]) => void;
  reject: (error: unknown) => void;
  /** Removes its abort listener once it leaves the queue: the request's signal may live on. */
  unlink: () => void;
  /** Set while it waits for a busy sequence that holds much more of its prompt. */
  hold?: ReturnType<typeof setTimeout>;
  held?: boolean;
}

/**
 * A busy sequence that shares this many more prompt tokens than any free one is worth waiting for:
 * typically the request an editor just cancelled for the next keystroke, about to stop.
 */
const holdMinTokens = 32;

export class SequencePool {
  private readonly free: LlamaContextSequence[] = [];
  private readonly busySequences = new Set<LlamaContextSequence>();
  private readonly queue: Waiter[] = [];
  /** Every sequence of the context, free or not. */
  readonly sequences: readonly LlamaContextSequence[];

  constructor(
    readonly context: LlamaContext,
    private readonly maxQueue: number,
    /** How long a request may wait for such a sequence before it takes a free one. */
    private readonly holdMs = 250,
  ) {
    for (let i = 0; i < context.totalSequences; i++) this.free.push(context.getSequence());
    this.sequences = [...this.free];
  }

  get size(): number {
    return this.context.totalSequences;
  }
  get busy(): number {
    return this.size - this.free.length;
  }
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves with `count` sequences, those sharing the longest prefix with `prompt` first. */
  acquire(count: number, prompt: readonly Token[], signal: AbortSignal): Promise<LlamaContextSequence[]> {
    return new Promise((resolve, reject) => {
      signal.throwIfAborted();
      const mustWait = this.queue.length > 0 || this.free.length < count;
      if (mustWait && this.queue.length >= this.maxQueue) {
        throw new EngineBusyError(`all ${this.size} sequences are busy and ${this.queue.length} requests are waiting: retry later`);
      }
      const onAbort = () => this.cancel(waiter, signal.reason);
      const waiter: Waiter = { count, prompt, resolve, reject, unlink: () => signal.removeEventListener("abort", onAbort) };
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      this.dispatch();
    });
  }

  release(sequences: readonly LlamaContextSequence[]): void {
    for (const sequence of sequences) this.busySequences.delete(sequence);
    this.free.push(...sequences);
    this.dispatch();
  }

  private cancel(waiter: Waiter, reason: unknown): void {
    const at = this.queue.indexOf(waiter);
    if (at === -1) return;
    this.queue.splice(at, 1);
    clearTimeout(waiter.hold);
    waiter.reject(reason);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.queue[0]!.count <= this.free.length) {
      const waiter = this.queue[0]!;
      const shared = (s: LlamaContextSequence) => s.compareContextTokens(waiter.prompt as Token[]).firstDifferentIndex;
      this.free.sort((a, b) => shared(b) - shared(a));
      if (this.worthHolding(waiter, shared)) return;
      clearTimeout(waiter.hold);
      waiter.unlink();
      this.queue.shift();
      const sequences = this.free.splice(0, waiter.count);
      for (const sequence of sequences) this.busySequences.add(sequence);
      waiter.resolve(sequences);
    }
  }

  /** Whether `waiter` should wait (once, briefly) for a busy sequence rather than evaluate its prompt again on a free one. */
  private worthHolding(waiter: Waiter, shared: (s: LlamaContextSequence) => number): boolean {
    if (waiter.held || waiter.count !== 1 || this.holdMs <= 0) return false;
    const bestFree = shared(this.free[0]!);
    const bestBusy = Math.max(0, ...[...this.busySequences].map(shared));
    if (bestBusy < bestFree + holdMinTokens) return false;
    waiter.held = true;
    waiter.hold = setTimeout(() => this.dispatch(), this.holdMs);
    return true;
  }
}

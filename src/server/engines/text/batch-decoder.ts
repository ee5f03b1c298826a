// Drives llama.cpp's decode and sampling for the engine's sequences directly, one native decode per
// step for all the sequences that are generating, instead of through node-llama-cpp's general
// evaluation loop: that loop's scheduling, locks and per-token sampler set-up cost about as much as
// the decode itself on small models. It keeps node-llama-cpp's own bookkeeping of each sequence
// (its tokens and next position) up to date, and takes the same context lock as node-llama-cpp's
// dispatcher, so the rest of node-llama-cpp (prefix comparison, erasing, its own evaluations for
// grammars and log probabilities) goes on working beside it.
import { withLock } from "lifecycle-utils";
import type { LlamaContext, LlamaContextSequence, LlamaModel, SequenceEvaluateOptions, Token } from "node-llama-cpp";
import type { NativeStep } from "./native-step";
import { nodeLlamaCppInternals, type NativeContext, type NativeSampler } from "./node-llama-cpp-internals";

/**
 * A step of the generating sequences (a token each, or a few guessed ones) is decode-like and
 * bound by memory; past this many tokens a decode is a prompt's, bound by compute.
 */
const promptSizedFrom = 8;

/**
 * How long one native call may generate for a sequence generating alone (see generate). Each
 * return to JavaScript between steps costs about 0.17 ms on these machines with the 151M model (its
 * decode leaves the caches cold), 2% of a step: 20 ms gives that model 2 steps per call and the 34M
 * one about 10, while other requests and the stream's text wait at most about a frame at 50 Hz.
 */
const generateBudgetMs = 20;

/**
 * Most tokens one such call generates. Real models reach the time budget first (2 to 10 steps);
 * the cap bounds, in tokens rather than time, what a request can still generate after its client
 * left: at most the call in flight when the server saw the close.
 */
export const RUN_MAX_TOKENS = 64;

/**
 * A turn of the event loop before a step on the server's thread: the requests' I/O (new requests,
 * disconnects, streamed text) gets its turn between steps, as it does while a pool job runs.
 */
const eventLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One sequence's share of a decode: tokens appended at its end, and what to sample after them. */
interface Step {
  sequence: LlamaContextSequence;
  tokens: readonly Token[];
  /** Sample after each of the last `samples` tokens, in order, while `accept` agrees. */
  samples: number;
  sampler?: NativeSampler;
  accept?: (index: number, token: Token) => boolean;
  /** Instead of sampling: reads the logits at the last `samples` tokens' indexes (before the next decode frees them). */
  inspect?: (context: NativeContext, logitIndexes: readonly number[]) => void;
  resolve: (sampled: Token[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Prompt tokens per decode where a request's prompt is evaluated in slices, checking for an abort
 * between them: a request a newer keystroke supersedes gives the sequence up after at most this
 * many more tokens (Qwen2.5-Coder-0.5B on 2 busy cores: about a second), not after its whole prompt.
 */
export const PROMPT_SLICE = 128;

export class BatchDecoder {
  private readonly queue: Step[] = [];
  private dispatchScheduled = false;
  private running = false;
  /** Sequences inside a generation loop: once all of them have a step queued, it goes at once. */
  private active = 0;

  constructor(
    private readonly context: LlamaContext,
    /** Most tokens per native decode (the context's batch size). */
    private readonly batchSize: number,
    /** Threads for generation steps, and for prompt-sized decodes (more than promptSizedFrom tokens). */
    private readonly threads: { generation: number; prompt: number },
    /** Decodes generation steps and samples on this thread (see native-step.ts); else node-llama-cpp's pool. */
    private readonly native?: NativeStep,
  ) {}

  /** Whether log-probabilities can be read (see logprobs). */
  get hasNativeStep(): boolean {
    return this.native !== undefined;
  }

  /** Counts a generation loop as active until the returned function is called. */
  enter(): () => void {
    this.active++;
    let left = false;
    return () => {
      if (!left) (left = true), this.active--;
    };
  }

  /**
   * Appends `tokens` to `sequence` (they are evaluated), then samples the token after each of the
   * last `samples` of them in order, stopping after the first one `accept` refuses. Resolves with
   * the sampled tokens.
   */
  decode(sequence: LlamaContextSequence, tokens: readonly Token[], sampling?: { sampler: NativeSampler; samples: number; accept?: (index: number, token: Token) => boolean }): Promise<Token[]> {
    if (tokens.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ sequence, tokens, samples: sampling?.samples ?? 0, sampler: sampling?.sampler, accept: sampling?.accept, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Decodes `token` at the end of `sequence` and samples what follows, like decode(sequence,
   * [token], { sampler, samples: 1 }); where the native step is loaded and this is the only
   * sequence generating, it goes on in the same call for up to generateBudgetMs, at most
   * `maxTokens` (and RUN_MAX_TOKENS) tokens, stopping after an end-of-generation token. Resolves
   * with the sampled tokens; with none when `signal` aborted during the I/O turn before the call.
   */
  async generate(sequence: LlamaContextSequence, token: Token, sampler: NativeSampler, maxTokens: number, signal?: AbortSignal): Promise<Token[]> {
    const native = this.native;
    const oneStep = () => this.decode(sequence, [token], { sampler, samples: 1 });
    if (!native || maxTokens <= 1 || !this.lone()) return oneStep();
    // A request the I/O turn brings may start another sequence, or the client may have left.
    await eventLoopTurn();
    if (signal?.aborted) return [];
    if (!this.lone()) return oneStep();
    return withLock([this.context, "context"], () => {
      const internals = nodeLlamaCppInternals(undefined, this.context);
      const seq = internals.sequence(sequence);
      const out = new Int32Array(Math.min(maxTokens, RUN_MAX_TOKENS));
      const steps = native.generate(internals.addonContext, seq.id, seq.nextTokenIndex, token, sampler, generateBudgetMs, out);
      const sampled = Array.from(out.subarray(0, steps)) as Token[];
      seq.appended([token, ...sampled.slice(0, -1)]);
      if (sampled.at(-1) === -1) throw new Error("the engine failed to sample a token");
      return sampled;
    });
  }

  /**
   * Appends `tokens` to `sequence` and returns the model's log-probability of each token after the
   * one before it, and of each of `then` after the last. Only where the native step is loaded (see
   * native-step.ts); at most a batch of tokens.
   */
  logprobs(sequence: LlamaContextSequence, tokens: readonly Token[], then: Int32Array): Promise<{ each: number[]; then: Float64Array }> {
    const native = this.native;
    if (!native) return Promise.reject(new Error("log-probabilities need the native step"));
    if (tokens.length === 0 || tokens.length > this.batchSize) return Promise.reject(new Error(`between 1 and ${this.batchSize} tokens can be scored at once`));
    const each: number[] = [];
    const last = new Float64Array(then.length);
    const one = new Int32Array(1);
    const read = new Float64Array(1);
    const inspect = (context: NativeContext, indexes: readonly number[]) => {
      for (let i = 0; i + 1 < indexes.length; i++) {
        one[0] = tokens[i + 1]!;
        native.logprobs(context, indexes[i]!, one, read);
        each.push(read[0]!);
      }
      native.logprobs(context, indexes.at(-1)!, then, last);
    };
    return new Promise((resolve, reject) => {
      this.queue.push({ sequence, tokens, samples: tokens.length, inspect, resolve: () => resolve({ each, then: last }), reject });
      this.schedule();
    });
  }

  /** No other sequence is generating or waiting to decode through this decoder. */
  private lone(): boolean {
    return this.active <= 1 && this.queue.length === 0;
  }

  /** A sampler for one choice, configured from node-llama-cpp's evaluation options. */
  sampler(model: LlamaModel, sequence: LlamaContextSequence, options: SequenceEvaluateOptions): { sampler: NativeSampler; update(): void; dispose(): void } {
    const internals = nodeLlamaCppInternals(model, this.context);
    const sampler = internals.newSampler();
    const configure = () => sampler.applyConfig(internals.samplerConfig(sequence, options));
    configure();
    // Penalties depend on what was generated so far: only they need the config again per token.
    return { sampler, update: options.repeatPenalty ? configure : () => {}, dispose: () => sampler.dispose() };
  }

  private schedule(): void {
    if (this.running) return;
    if (this.queue.length >= Math.max(1, this.active)) {
      void this.run();
      return;
    }
    if (this.dispatchScheduled) return;
    // Another generating sequence may still add its step this turn: decode both at once.
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.queue.length === 0) return;
    this.running = true;
    const steps = this.queue.splice(0, this.queue.length);
    try {
      await withLock([this.context, "context"], () => this.decodeSteps(steps));
    } catch (error) {
      for (const step of steps) step.reject(error);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** Decodes the steps' tokens in batches of at most batchSize, then samples where asked. */
  private async decodeSteps(steps: Step[]): Promise<void> {
    const ctx = nodeLlamaCppInternals(undefined, this.context).addonContext;
    const left = steps.map((step) => ({ step, from: 0, logitIndexes: [] as number[] }));
    while (left.some((l) => l.from < l.step.tokens.length)) {
      let room = this.batchSize;
      const parts: { entry: (typeof left)[number]; count: number }[] = [];
      for (const entry of left) {
        // Logits are read from one decode: a scored step waits for a batch it fits in whole.
        if (entry.step.inspect && entry.from === 0 && entry.step.tokens.length > room && room < this.batchSize) continue;
        const count = Math.min(room, entry.step.tokens.length - entry.from);
        if (count > 0) parts.push({ entry, count }), (room -= count);
      }
      ctx.initBatch(this.batchSize - room);
      for (const { entry, count } of parts) {
        const { step } = entry;
        const sequence = nodeLlamaCppInternals(undefined, this.context).sequence(step.sequence);
        const firstSampled = step.tokens.length - step.samples;
        const logits: number[] = [];
        for (let i = entry.from; i < entry.from + count; i++) if (i >= firstSampled) logits.push(i - entry.from);
        const chunk = step.tokens.slice(entry.from, entry.from + count);
        const indexes = ctx.addToBatch(sequence.id, sequence.nextTokenIndex, Uint32Array.from(chunk), Uint32Array.from(logits));
        sequence.appended(chunk);
        entry.logitIndexes.push(...indexes);
        entry.from += count;
      }
      await this.decodeWithThreads(ctx, this.batchSize - room);
      // Logits live until the next decode: sample every finished step of this batch now.
      await Promise.all(parts.filter(({ entry }) => entry.from === entry.step.tokens.length).map(({ entry }) => this.sample(entry.step, entry.logitIndexes)));
    }
  }

  /**
   * The context has one thread count (node-llama-cpp sets llama.cpp's two together): prompt-sized
   * decodes get the prompt threads and the count goes back at once, so generation steps and
   * node-llama-cpp's own evaluations run with the generation threads.
   */
  private async decodeWithThreads(ctx: NativeContext, tokens: number): Promise<void> {
    if (this.native && tokens <= promptSizedFrom) {
      await eventLoopTurn();
      return this.native.decode(ctx);
    }
    const threads = tokens > promptSizedFrom ? this.threads.prompt : this.threads.generation;
    if (threads === this.threads.generation) return ctx.decodeBatch();
    ctx.setThreads(threads);
    try {
      await ctx.decodeBatch();
    } finally {
      ctx.setThreads(this.threads.generation);
    }
  }

  private async sample(step: Step, logitIndexes: number[]): Promise<void> {
    try {
      const ctx = nodeLlamaCppInternals(undefined, this.context).addonContext;
      if (step.inspect) {
        step.inspect(ctx, logitIndexes);
        return step.resolve([]);
      }
      const sampled: Token[] = [];
      for (let i = 0; i < logitIndexes.length && step.sampler; i++) {
        const token = (this.native ? this.native.sample(ctx, logitIndexes[i]!, step.sampler) : await ctx.sampleToken(logitIndexes[i]!, step.sampler)) as Token | -1;
        if (token === -1) throw new Error("the engine failed to sample a token");
        sampled.push(token);
        if (step.accept && !step.accept(i, token)) break;
      }
      step.resolve(sampled);
    } catch (error) {
      step.reject(error);
    }
  }
}

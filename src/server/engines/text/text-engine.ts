// The text engine: one loaded model and context per model id, `parallel` sequences per context,
// requests queued FIFO for sequences, prompt prefixes reused across requests.
import { getLlama, type Llama, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { BatchDecoder } from "./batch-decoder";
import { runDirectChoice } from "./direct-choice";
import { EngineInputError } from "./engine-input-error";
import { fitInfill } from "./fit-infill";
import { directDecodingAvailable } from "./node-llama-cpp-internals";
import { renderChatPrompt, type ChatMessage } from "./chat-prompt";
import { alignToPrompt, runChoice } from "./run-choice";
import { SequencePool } from "./sequence-pool";
import type { ChoiceResult, GenerationRequest, GenerationResult, PromptStats } from "./types";

export interface TextEngineOptions {
  threads: number;
  parallel: number;
  contextSize: number;
  /** Requests that may wait for a sequence; more get a 429. */
  maxQueue: number;
  /** Reuse each sequence's evaluated prompt prefix (false only to measure what it saves). */
  prefixReuse: boolean;
  /** Tokens predicted per step by input lookup (speculative decoding from the prompt); 0: off. */
  inputLookup?: number;
}

export interface TextEngineMetrics {
  requests: number;
  aborted: number;
  promptTokensEvaluated: number;
  promptTokensCached: number;
  completionTokens: number;
  /** Tokens guessed by input lookup, and how many of them the model confirmed. */
  lookupPredicted: number;
  lookupAccepted: number;
  sequences: { total: number; busy: number; waiting: number };
}

interface LoadedModel {
  model: LlamaModel;
  pool: SequencePool;
  /** Drives decoding directly (see batch-decoder.ts); undefined where node-llama-cpp lacks what it needs. */
  decoder?: BatchDecoder;
}

export class TextEngine {
  private llama?: Promise<Llama>;
  private readonly loaded = new Map<string, Promise<LoadedModel>>();
  /** Pools of the models loaded so far, for metrics. */
  private readonly pools = new Set<SequencePool>();
  private readonly counters = { requests: 0, aborted: 0, promptTokensEvaluated: 0, promptTokensCached: 0, completionTokens: 0, lookupPredicted: 0, lookupAccepted: 0 };

  constructor(readonly options: TextEngineOptions) {}

  /** Loads (once) the GGUF at `path` under `id`. */
  async model(id: string, path: string): Promise<LlamaModel> {
    return (await this.load(id, path)).model;
  }

  private binary(): Promise<Llama> {
    // node-llama-cpp prefers a build of its own for this machine over its prebuilt binaries when
    // one was made (its `source download` command); nothing is ever built or downloaded here.
    this.llama ??= getLlama({ gpu: false, build: "never", logLevel: "error" as never });
    return this.llama;
  }

  /** Which llama.cpp binary runs the models, for the server's start-up lines. */
  async describeBinary(): Promise<string> {
    const llama = await this.binary();
    const kind = llama.buildType === "localBuild" ? "node-llama-cpp's own build for this machine" : "node-llama-cpp's prebuilt CPU binaries";
    return `llama.cpp ${llama.llamaCppRelease.release}, ${kind}`;
  }

  private load(id: string, path: string): Promise<LoadedModel> {
    let entry = this.loaded.get(id);
    if (!entry) {
      entry = (async () => {
        const model = await (await this.binary()).loadModel({ modelPath: path });
        const context = await model.createContext({
          contextSize: Math.min(this.options.contextSize, model.trainContextSize),
          sequences: this.options.parallel,
          threads: this.options.threads,
        });
        const pool = new SequencePool(context, this.options.maxQueue);
        this.pools.add(pool);
        const direct = pool.sequences.every((s) => directDecodingAvailable(model, context, s));
        return { model, pool, decoder: direct ? new BatchDecoder(context, context.batchSize) : undefined };
      })();
      entry.catch(() => this.loaded.delete(id));
      this.loaded.set(id, entry);
    }
    return entry;
  }

  /**
   * Completion prompts may spell out special tokens (a client's own FIM template, e.g.
   * "<|fim_prefix|>...<|fim_middle|>"), as llama.cpp's server and vLLM accept: parse them.
   */
  tokenizePrompt(model: LlamaModel, text: string): Token[] {
    return model.tokenize(text, true);
  }

  chatPrompt(model: LlamaModel, messages: readonly ChatMessage[]): Token[] {
    return renderChatPrompt(model, messages);
  }

  /**
   * FIM prompt in the model's own tokens: suffix first (`<suf> suffix <pre> prefix <mid>`) for a
   * model that declares it was trained so (GGUF `wisp.fim.suffix_first`), where typing at the
   * cursor only extends the prompt and the server re-evaluates just the new tokens; otherwise
   * prefix-suffix-middle, the layout every FIM model knows. Fitted to the context with room for
   * `maxTokens` (see fitInfill): an editor cannot know how many tokens its text makes.
   */
  infillPrompt(model: LlamaModel, prefix: string, suffix: string, maxTokens = 0): Token[] {
    const { prefix: pre, suffix: suf, middle: mid } = model.tokens.infill;
    if (pre === null || suf === null || mid === null) {
      throw new EngineInputError("this model has no fill-in-the-middle tokens: suffix is not supported", "suffix");
    }
    const limit = Math.min(this.options.contextSize, model.trainContextSize);
    const fitted = fitInfill(model.tokenize(prefix, false), model.tokenize(suffix, false), limit - 3 - Math.min(maxTokens, Math.floor(limit / 4)));
    return suffixFirst(model)
      ? [suf, ...fitted.suffix, pre, ...fitted.prefix, mid]
      : [pre, ...fitted.prefix, suf, ...fitted.suffix, mid];
  }

  jsonGrammar(id: string, path: string, schema?: object): Promise<LlamaGrammar> {
    return this.load(id, path).then(async () => {
      const llama = await this.binary();
      if (!schema) return llama.getGrammarFor("json");
      try {
        return await llama.createGrammarForJsonSchema(schema as never);
      } catch (error) {
        throw new EngineInputError(`unsupported JSON schema: ${(error as Error).message}`, "guided_json");
      }
    });
  }

  async generate(id: string, path: string, request: GenerationRequest): Promise<GenerationResult> {
    const { model, pool, decoder } = await this.load(id, path);
    const limit = pool.context.contextSize;
    if (request.prompt.length === 0) throw new EngineInputError("the prompt is empty", request.promptParam);
    if (request.prompt.length + Math.min(request.maxTokens, 1) > limit) {
      throw new EngineInputError(`the prompt is ${request.prompt.length} tokens, more than the context size of ${limit} tokens`, request.promptParam);
    }
    this.counters.requests++;
    // n above --parallel: the choices take turns on the sequences this request holds; the prompt
    // is evaluated once per sequence, later rounds reuse it.
    const sequences = await pool.acquire(Math.min(request.n, pool.size), request.prompt, request.signal);
    try {
      const maxTokens = Math.min(request.maxTokens, limit - request.prompt.length);
      const prompt: PromptStats = { evaluated: 0, cached: 0 };
      const choices: ChoiceResult[] = [];
      for (let first = 0; first < request.n && !request.signal.aborted; first += sequences.length) {
        const round = sequences.slice(0, Math.min(sequences.length, request.n - first));
        const aligned = await Promise.all(round.map((s) => alignToPrompt(s, request.prompt, this.options.prefixReuse)));
        if (first === 0) {
          prompt.evaluated = aligned.reduce((a, s) => a + s.evaluated, 0);
          prompt.cached = aligned.reduce((a, s) => a + s.cached, 0);
        }
        if (maxTokens === 0) {
          choices.push(...(await Promise.all(round.map((s, i) => evaluateOnly(s, aligned[i]!.rest, request.signal)))));
          if (first === 0) request.onPromptReady?.(prompt);
        } else {
          if (first === 0) request.onPromptReady?.(prompt);
          // Log probabilities and grammars take node-llama-cpp's own evaluation loop.
          const direct = decoder !== undefined && request.topLogprobs === undefined && request.sampling.grammar === undefined;
          const run = (s: LlamaContextSequence, i: number) =>
            direct
              ? runDirectChoice(model, s, decoder, { ...request, maxTokens }, first + i, aligned[i]!.rest, this.options.inputLookup ?? 0)
              : runChoice(model, s, { ...request, maxTokens }, first + i, aligned[i]!.rest);
          choices.push(...(await Promise.all(round.map(run))));
        }
      }
      const completionTokens = choices.reduce((sum, c) => sum + c.tokens, 0);
      for (const c of choices) {
        this.counters.lookupPredicted += c.lookup?.predicted ?? 0;
        this.counters.lookupAccepted += c.lookup?.accepted ?? 0;
      }
      this.counters.promptTokensEvaluated += prompt.evaluated;
      this.counters.promptTokensCached += prompt.cached;
      this.counters.completionTokens += completionTokens;
      if (request.signal.aborted) this.counters.aborted++;
      return { choices, promptTokens: request.prompt.length, completionTokens, prompt };
    } finally {
      pool.release(sequences);
    }
  }

  /**
   * Several prompts in one request (OpenAI's completions batching): each gets `n` choices, numbered
   * prompt by prompt (choice i of prompt p is choice p * n + i), generated one prompt after another.
   */
  async generateEach(id: string, path: string, request: Omit<GenerationRequest, "prompt">, prompts: readonly (readonly Token[])[]): Promise<GenerationResult> {
    const total: GenerationResult = { choices: [], promptTokens: 0, completionTokens: 0, prompt: { evaluated: 0, cached: 0 } };
    for (const [p, prompt] of prompts.entries()) {
      if (request.signal.aborted) break;
      const result = await this.generate(id, path, {
        ...request,
        prompt,
        onPromptReady: p === 0 ? request.onPromptReady : undefined,
        onText: request.onText && ((choice, text, logprobs) => request.onText!(p * request.n + choice, text, logprobs)),
      });
      total.choices.push(...result.choices);
      total.promptTokens += result.promptTokens;
      total.completionTokens += result.completionTokens;
      total.prompt.evaluated += result.prompt.evaluated;
      total.prompt.cached += result.prompt.cached;
    }
    return total;
  }

  metrics(): TextEngineMetrics {
    const pools = [...this.pools];
    return {
      ...this.counters,
      sequences: {
        total: pools.reduce((a, p) => a + p.size, 0),
        busy: pools.reduce((a, p) => a + p.busy, 0),
        waiting: pools.reduce((a, p) => a + p.waiting, 0),
      },
    };
  }

  async dispose(): Promise<void> {
    const entries = await Promise.allSettled(this.loaded.values());
    this.loaded.clear();
    for (const e of entries) if (e.status === "fulfilled") await e.value.model.dispose();
    if (this.llama) await (await this.llama).dispose();
  }
}

function suffixFirst(model: LlamaModel): boolean {
  const metadata = model.fileInfo.metadata as { wisp?: { fim?: { suffix_first?: unknown } } };
  return metadata.wisp?.fim?.suffix_first === true;
}

/** Prompt slices evaluated between checks for an abort: a warm-up of a long prompt stops soon after its client leaves. */
const warmUpSlice = 256;

/**
 * max_tokens 0: evaluates the prompt and generates nothing, so that later requests sharing the
 * prompt's start reuse it (an editor warms the cache when a file is opened).
 */
async function evaluateOnly(sequence: LlamaContextSequence, rest: readonly Token[], signal: AbortSignal): Promise<ChoiceResult> {
  for (let at = 0; at < rest.length && !signal.aborted; at += warmUpSlice) {
    await sequence.evaluateWithoutGeneratingNewTokens(rest.slice(at, at + warmUpSlice));
  }
  return { text: "", tokens: 0, finishReason: "length" };
}

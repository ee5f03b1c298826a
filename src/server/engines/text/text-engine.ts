// The text engine: one loaded model and context per model id, `parallel` sequences per context,
// requests queued FIFO for sequences, prompt prefixes reused across requests.
import { getLlama, type Llama, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { EngineInputError } from "./engine-input-error";
import { renderChatPrompt, type ChatMessage } from "./chat-prompt";
import { alignToPrompt, runChoice } from "./run-choice";
import { SequencePool } from "./sequence-pool";
import type { ChoiceResult, GenerationRequest, GenerationResult } from "./types";

export interface TextEngineOptions {
  threads: number;
  parallel: number;
  contextSize: number;
  /** Requests that may wait for a sequence; more get a 429. */
  maxQueue: number;
  /** Reuse each sequence's evaluated prompt prefix (false only to measure what it saves). */
  prefixReuse: boolean;
}

export interface TextEngineMetrics {
  requests: number;
  aborted: number;
  promptTokensEvaluated: number;
  promptTokensCached: number;
  completionTokens: number;
  sequences: { total: number; busy: number; waiting: number };
}

interface LoadedModel {
  model: LlamaModel;
  pool: SequencePool;
}

export class TextEngine {
  private llama?: Promise<Llama>;
  private readonly loaded = new Map<string, Promise<LoadedModel>>();
  /** Pools of the models loaded so far, for metrics. */
  private readonly pools = new Set<SequencePool>();
  private readonly counters = { requests: 0, aborted: 0, promptTokensEvaluated: 0, promptTokensCached: 0, completionTokens: 0 };

  constructor(readonly options: TextEngineOptions) {}

  /** Loads (once) the GGUF at `path` under `id`. */
  async model(id: string, path: string): Promise<LlamaModel> {
    return (await this.load(id, path)).model;
  }

  private load(id: string, path: string): Promise<LoadedModel> {
    let entry = this.loaded.get(id);
    if (!entry) {
      entry = (async () => {
        this.llama ??= getLlama({ gpu: false, build: "never", logLevel: "error" as never });
        const model = await (await this.llama).loadModel({ modelPath: path });
        const context = await model.createContext({
          contextSize: Math.min(this.options.contextSize, model.trainContextSize),
          sequences: this.options.parallel,
          threads: this.options.threads,
        });
        const pool = new SequencePool(context, this.options.maxQueue);
        this.pools.add(pool);
        return { model, pool };
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
   * prefix-suffix-middle, the layout every FIM model knows.
   */
  infillPrompt(model: LlamaModel, prefix: string, suffix: string): Token[] {
    const { prefix: pre, suffix: suf, middle: mid } = model.tokens.infill;
    if (pre === null || suf === null || mid === null) {
      throw new EngineInputError("this model has no fill-in-the-middle tokens: suffix is not supported", "suffix");
    }
    const prefixTokens = model.tokenize(prefix, false);
    const suffixTokens = model.tokenize(suffix, false);
    return suffixFirst(model) ? [suf, ...suffixTokens, pre, ...prefixTokens, mid] : [pre, ...prefixTokens, suf, ...suffixTokens, mid];
  }

  jsonGrammar(id: string, path: string, schema?: object): Promise<LlamaGrammar> {
    return this.load(id, path).then(async () => {
      const llama = await this.llama!;
      if (!schema) return llama.getGrammarFor("json");
      try {
        return await llama.createGrammarForJsonSchema(schema as never);
      } catch (error) {
        throw new EngineInputError(`unsupported JSON schema: ${(error as Error).message}`, "guided_json");
      }
    });
  }

  async generate(id: string, path: string, request: GenerationRequest): Promise<GenerationResult> {
    const { model, pool } = await this.load(id, path);
    const limit = pool.context.contextSize;
    if (request.prompt.length === 0) throw new EngineInputError("the prompt is empty", request.promptParam);
    if (request.prompt.length + Math.min(request.maxTokens, 1) > limit) {
      throw new EngineInputError(`the prompt is ${request.prompt.length} tokens, more than the context size of ${limit} tokens`, request.promptParam);
    }
    if (request.n > pool.size) throw new EngineInputError(`n must be at most ${pool.size} (the server's --parallel)`, "n");
    this.counters.requests++;
    const sequences = await pool.acquire(request.n, request.prompt, request.signal);
    try {
      const maxTokens = Math.min(request.maxTokens, limit - request.prompt.length);
      const aligned = await Promise.all(sequences.map((s) => alignToPrompt(s, request.prompt, this.options.prefixReuse)));
      const prompt = aligned.reduce((a, s) => ({ evaluated: a.evaluated + s.evaluated, cached: a.cached + s.cached }), { evaluated: 0, cached: 0 });
      let choices: ChoiceResult[];
      if (maxTokens === 0) {
        choices = await Promise.all(sequences.map((s, i) => evaluateOnly(s, aligned[i]!.rest, request.signal)));
        request.onPromptReady?.(prompt);
      } else {
        request.onPromptReady?.(prompt);
        choices = await Promise.all(sequences.map((s, i) => runChoice(model, s, { ...request, maxTokens }, i, aligned[i]!.rest)));
      }
      const completionTokens = choices.reduce((sum, c) => sum + c.tokens, 0);
      this.counters.promptTokensEvaluated += prompt.evaluated;
      this.counters.promptTokensCached += prompt.cached;
      this.counters.completionTokens += completionTokens;
      if (request.signal.aborted) this.counters.aborted++;
      return { choices, promptTokens: request.prompt.length, completionTokens, prompt };
    } finally {
      pool.release(sequences);
    }
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

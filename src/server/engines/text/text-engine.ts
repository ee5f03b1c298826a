// The text engine: one loaded model and context per model id, `parallel` sequences per context,
// requests queued FIFO for sequences, prompt prefixes reused across requests.
import { getLlama, type JinjaTemplateChatWrapper, type Llama, type LlamaContextSequence, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { BatchDecoder } from "./batch-decoder";
import { runDirectChoice } from "./direct-choice";
import { EngineInputError } from "./engine-input-error";
import { fitInfill } from "./fit-infill";
import { tokenizeText } from "./inert-text";
import { llamaGpu } from "../native-engines";
import { loadNativeStep, type NativeStepLoad } from "./native-step";
import { directDecodingAvailable } from "./node-llama-cpp-internals";
import { chatWrapper, renderToolChatPrompt, type ChatMessage, type ChatTool, type RenderedChat } from "./chat-prompt";
import { runLineChoice } from "./line-choice";
import { runScopedChoice } from "./scoped-choice";
import { alignToPrompt, runChoice } from "./run-choice";
import { SequencePool } from "./sequence-pool";
import { grammarSchema, toolCallGrammar } from "./tool-call-grammar";
import type { CallLayout } from "./tool-call-layout";
import type { ChoiceResult, FileLines, GenerationRequest, GenerationResult, PromptStats, TokenHealing } from "./types";
import type { FimLayout } from "../../models/llama-gguf";

export interface TextEngineOptions {
  threads: number;
  /** Threads for prompt-sized decodes through the batch decoder (default: threads). */
  threadsBatch?: number;
  parallel: number;
  contextSize: number;
  /** Requests that may wait for a sequence; more get a 429. */
  maxQueue: number;
  /** Reuse each sequence's evaluated prompt prefix (false only to measure what it saves). */
  prefixReuse: boolean;
  /** Tokens predicted per step by input lookup (speculative decoding from the prompt); 0: off. */
  inputLookup?: number;
  /** Generation steps on the server's thread where decode-step is built (native-step.ts); default true. */
  nativeStep?: boolean;
  /** Answer greedy one-line infill requests with a line copied from the file where it offers some (line-choice.ts); default true. */
  lineCandidates?: boolean;
}

export interface TextEngineMetrics {
  requests: number;
  /** Requests answered with a line copied from the file (see runLineChoice). */
  linesCopied: number;
  /** Requests whose client left before the end. */
  aborted: number;
  /**
   * Tokens generated for them once the server saw the client leave: at most the native call in
   * flight then (RUN_MAX_TOKENS, or one step), since no call starts after it.
   */
  tokensAfterAbort: number;
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
  private nativeStep?: NativeStepLoad;
  private readonly loaded = new Map<string, Promise<LoadedModel>>();
  /** Pools of the models loaded so far, for metrics. */
  private readonly pools = new Set<SequencePool>();
  /** Each token's text, per model that heals prompts or copies lines (see textsOf). */
  private readonly tokenTexts = new WeakMap<LlamaModel, string[]>();
  /** The tokens that end a line, per model (see runLineChoice). */
  private readonly lineEndTokens = new WeakMap<LlamaModel, Int32Array>();
  /** Each model's chat template, made once (see chatWrapper). */
  private readonly chatWrappers = new WeakMap<LlamaModel, JinjaTemplateChatWrapper>();
  /** Aborts the generations under way when the engine is disposed; `running` are they. */
  private readonly closing = new AbortController();
  private readonly running = new Set<Promise<GenerationResult>>();
  private readonly counters = { requests: 0, linesCopied: 0, aborted: 0, tokensAfterAbort: 0, promptTokensEvaluated: 0, promptTokensCached: 0, completionTokens: 0, lookupPredicted: 0, lookupAccepted: 0 };

  constructor(readonly options: TextEngineOptions) {}

  /** Loads (once) the GGUF at `path` under `id`. */
  async model(id: string, path: string): Promise<LlamaModel> {
    return (await this.load(id, path)).model;
  }

  private binary(): Promise<Llama> {
    // node-llama-cpp prefers a build of its own for this machine over its prebuilt binaries when
    // one was made (its `source download` command); nothing is ever built or downloaded here.
    // Apple silicon's prebuilt binary is the Metal one; everywhere else the CPU one.
    this.llama ??= getLlama({ gpu: llamaGpu(`${process.platform}-${process.arch}`), build: "never", logLevel: "error" as never });
    return this.llama;
  }

  /** Which llama.cpp binary runs the models, for the server's start-up lines. */
  async describeBinary(): Promise<string> {
    const llama = await this.binary();
    const kind = llama.buildType === "localBuild" ? "node-llama-cpp's own build for this machine" : `node-llama-cpp's prebuilt ${llama.gpu === "metal" ? "Metal" : "CPU"} binaries`;
    const { reason } = this.stepLoad();
    const steps = reason === undefined ? "generation steps on the server's thread (decode-step)" : `generation steps on node-llama-cpp's thread pool: ${reason}`;
    return `llama.cpp ${llama.llamaCppRelease.release}, ${kind}; ${steps}`;
  }

  /** The native step, loaded once the binary is (it binds to node-llama-cpp's loaded copy). */
  private stepLoad(): NativeStepLoad {
    this.nativeStep ??= this.options.nativeStep === false ? { reason: "off (--no-native-step)" } : loadNativeStep();
    return this.nativeStep;
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
        const threads = { generation: this.options.threads, prompt: this.options.threadsBatch ?? this.options.threads };
        return { model, pool, decoder: direct ? new BatchDecoder(context, context.batchSize, threads, this.stepLoad().step) : undefined };
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
    return withBos(model, model.tokenize(text, true));
  }

  toolChatPrompt(model: LlamaModel, messages: readonly ChatMessage[], tools: readonly ChatTool[]): RenderedChat {
    return renderToolChatPrompt(model, messages, tools, this.chatWrapper(model));
  }

  private chatWrapper(model: LlamaModel): JinjaTemplateChatWrapper {
    let wrapper = this.chatWrappers.get(model);
    if (!wrapper) {
      wrapper = chatWrapper(model);
      this.chatWrappers.set(model, wrapper);
    }
    return wrapper;
  }

  /**
   * FIM prompt in the model's own tokens, in the layout the model declares it was trained on (see
   * FimLayout): with the suffix first, typing at the cursor only extends the prompt and the server
   * re-evaluates just the new tokens. Fitted to the context with room for
   * `maxTokens` (see fitInfill): an editor cannot know how many tokens its text makes.
   */
  infillPrompt(model: LlamaModel, prefix: string, suffix: string, maxTokens = 0): Token[] {
    const { prefix: pre, suffix: suf, middle: mid } = model.tokens.infill;
    if (pre === null || suf === null || mid === null) {
      throw new EngineInputError("this model has no fill-in-the-middle tokens: suffix is not supported", "suffix");
    }
    const limit = Math.min(this.options.contextSize, model.trainContextSize);
    const fitted = fitInfill(tokenizeText(model, prefix), tokenizeText(model, suffix), limit - 4 - Math.min(maxTokens, Math.floor(limit / 4)));
    switch (fimLayout(model)) {
      case "suffix-middle-prefix":
        return withBos(model, [pre, suf, ...fitted.suffix, mid, ...fitted.prefix]);
      case "suffix-first":
        return withBos(model, [suf, ...fitted.suffix, pre, ...fitted.prefix, mid]);
      default:
        return withBos(model, [pre, ...fitted.prefix, suf, ...fitted.suffix, mid]);
    }
  }

  jsonGrammar(id: string, path: string, schema?: object): Promise<LlamaGrammar> {
    return this.load(id, path).then(async () => {
      const llama = await this.binary();
      if (!schema) return llama.getGrammarFor("json");
      return schemaGrammar(llama, schema, "unsupported JSON schema", "guided_json");
    });
  }

  /** A grammar for one call to one of `tools` in `layout` (see tool-call-grammar.ts). */
  async toolCallGrammar(id: string, path: string, layout: CallLayout, tools: readonly ChatTool[]): Promise<LlamaGrammar> {
    await this.load(id, path);
    const llama = await this.binary();
    const argumentGrammars = await Promise.all(
      tools.map(async (tool, i) => {
        if (!tool.parameters) return { name: tool.name, argumentsGbnf: 'root ::= "{}"' };
        const grammar = await schemaGrammar(llama, tool.parameters, `tools[${i}].function.parameters: unsupported JSON schema`, "tools");
        return { name: tool.name, argumentsGbnf: grammar.grammar };
      }),
    );
    return llama.createGrammar({ grammar: toolCallGrammar(layout, argumentGrammars) });
  }

  /**
   * The FIM prompt with token healing (see TokenHealing) where the model's middle continues its
   * prefix (suffix-middle-prefix): the prefix's last token comes off the prompt, and the answer
   * starts by choosing it again or a longer token that begins with it. Otherwise infillPrompt.
   */
  healedInfill(model: LlamaModel, prefix: string, suffix: string, maxTokens = 0): { prompt: Token[]; heal?: TokenHealing } {
    const prompt = this.infillPrompt(model, prefix, suffix, maxTokens);
    const last = prompt.at(-1)!;
    if (fimLayout(model) !== "suffix-middle-prefix" || last === model.tokens.infill.middle) return { prompt };
    const text = model.detokenize([last]);
    // A line break ends what the prefix says; a piece of a character cannot be matched as text.
    if (text === "" || text.includes("\n") || text.includes("\uFFFD")) return { prompt };
    return { prompt: prompt.slice(0, -1), heal: { token: last, text } };
  }

  /** The request's logit bias, with every token whose text does not start with `text` ruled out. */
  private healingBias(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, text: string): Map<Token, number> {
    const bias = new Map(logitBias);
    this.textsOf(model).forEach((t, token) => {
      if (!t.startsWith(text)) bias.set(token as Token, -Infinity);
    });
    return bias;
  }

  /** Each token's text, made once per model (token healing and line ends read it). */
  private textsOf(model: LlamaModel): string[] {
    let texts = this.tokenTexts.get(model);
    if (!texts) {
      const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
      texts = Array.from({ length: count }, (_, t) => model.detokenize([t as Token]));
      this.tokenTexts.set(model, texts);
    }
    return texts;
  }

  /** Tokens whose text starts with a line break, and the end-of-generation ones. */
  private lineEnds(model: LlamaModel): Int32Array {
    let ends = this.lineEndTokens.get(model);
    if (!ends) {
      const texts = this.textsOf(model);
      ends = Int32Array.from(texts.flatMap((text, t) => (model.isEogToken(t as Token) || /^\r?\n/.test(text) ? [t] : [])));
      this.lineEndTokens.set(model, ends);
    }
    return ends;
  }

  /** What a request may take from its file (see runLineChoice, runScopedChoice): only greedy, one line, one choice, nothing else asked of the tokens. */
  private usableFile(request: GenerationRequest): FileLines | undefined {
    const s = request.sampling;
    const greedy = s.temperature === 0 && s.logitBias.size === 0 && s.presencePenalty === 0 && s.frequencyPenalty === 0 && s.grammar === undefined;
    const plain = request.n === 1 && request.topLogprobs === undefined && request.stop.includes("\n");
    return this.options.lineCandidates !== false && greedy && plain ? request.file : undefined;
  }

  /**
   * Generates the request's choices. Disposing the engine aborts the generation, and waits for it:
   * llama.cpp crashes when a model is freed in the middle of a decode.
   */
  generate(id: string, path: string, request: GenerationRequest): Promise<GenerationResult> {
    if (this.closing.signal.aborted) return Promise.reject(new Error("the text engine is shut down"));
    const run = this.run(id, path, { ...request, signal: AbortSignal.any([request.signal, this.closing.signal]) });
    this.running.add(run);
    run.then(
      () => this.running.delete(run),
      () => this.running.delete(run),
    );
    return run;
  }

  private async run(id: string, path: string, request: GenerationRequest): Promise<GenerationResult> {
    const { model, pool, decoder } = await this.load(id, path);
    const file = this.usableFile(request);
    const lines = file?.lines.length ? file.lines : undefined;
    // Log probabilities and grammars take node-llama-cpp's own evaluation loop, which cannot heal:
    // there, the healed token goes back on the prompt.
    const direct = decoder !== undefined && request.topLogprobs === undefined && request.sampling.grammar === undefined;
    if (request.heal && !direct) request = { ...request, prompt: [...request.prompt, request.heal.token], heal: undefined };
    const healingBias = request.heal ? this.healingBias(model, request.sampling.logitBias, request.heal.text) : undefined;
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
          // A line the file offers once is the answer as it is: the prompt is not evaluated for it.
          prompt.evaluated = lines?.length === 1 ? 0 : aligned.reduce((a, s) => a + s.evaluated, 0);
          prompt.cached = aligned.reduce((a, s) => a + s.cached, 0);
        }
        if (maxTokens === 0) {
          choices.push(...(await Promise.all(round.map((s, i) => evaluateOnly(s, aligned[i]!.rest, request.signal, decoder)))));
          if (first === 0) request.onPromptReady?.(prompt);
        } else {
          if (first === 0) request.onPromptReady?.(prompt);
          const run = (s: LlamaContextSequence, i: number) => {
            const choiceRequest = { ...request, maxTokens };
            const rest = aligned[i]!.rest;
            if (lines) return runLineChoice(model, s, decoder, choiceRequest, first + i, rest, lines, this.lineEnds(model));
            if (!direct) return runChoice(model, s, choiceRequest, first + i, rest);
            const generate = (r: GenerationRequest, from: Token[], bias?: ReadonlyMap<Token, number>) =>
              runDirectChoice(model, s, decoder, r, first + i, from, this.options.inputLookup ?? 0, bias);
            return file
              ? runScopedChoice(generate, s, choiceRequest, first + i, rest, healingBias, file.outOfScope, () => this.textsOf(model))
              : generate(choiceRequest, rest, healingBias);
          };
          choices.push(...(await Promise.all(round.map(run))));
        }
      }
      const completionTokens = choices.reduce((sum, c) => sum + c.tokens, 0);
      if (lines && choices.length > 0) this.counters.linesCopied++;
      for (const c of choices) {
        this.counters.lookupPredicted += c.lookup?.predicted ?? 0;
        this.counters.lookupAccepted += c.lookup?.accepted ?? 0;
      }
      this.counters.promptTokensEvaluated += prompt.evaluated;
      this.counters.promptTokensCached += prompt.cached;
      this.counters.completionTokens += completionTokens;
      const tokensAfterAbort = choices.reduce((sum, c) => sum + (c.afterAbort ?? 0), 0);
      this.counters.tokensAfterAbort += tokensAfterAbort;
      if (request.signal.aborted) this.counters.aborted++;
      return { choices, promptTokens: request.prompt.length, completionTokens, prompt, tokensAfterAbort };
    } finally {
      pool.release(sequences);
    }
  }

  /**
   * Several prompts in one request (OpenAI's completions batching): each gets `n` choices, numbered
   * prompt by prompt (choice i of prompt p is choice p * n + i), generated one prompt after another.
   */
  async generateEach(
    id: string,
    path: string,
    request: Omit<GenerationRequest, "prompt" | "heal" | "file">,
    prompts: readonly (readonly Token[])[],
    heals: readonly (TokenHealing | undefined)[] = [],
    files: readonly (FileLines | undefined)[] = [],
  ): Promise<GenerationResult> {
    const total: GenerationResult = { choices: [], promptTokens: 0, completionTokens: 0, prompt: { evaluated: 0, cached: 0 }, tokensAfterAbort: 0 };
    for (const [p, prompt] of prompts.entries()) {
      if (request.signal.aborted) break;
      const result = await this.generate(id, path, {
        ...request,
        prompt,
        heal: heals[p],
        file: files[p],
        onPromptReady: p === 0 ? request.onPromptReady : undefined,
        onText: request.onText && ((choice, text, logprobs) => request.onText!(p * request.n + choice, text, logprobs)),
      });
      total.choices.push(...result.choices);
      total.promptTokens += result.promptTokens;
      total.completionTokens += result.completionTokens;
      total.prompt.evaluated += result.prompt.evaluated;
      total.prompt.cached += result.prompt.cached;
      total.tokensAfterAbort += result.tokensAfterAbort;
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
    this.closing.abort();
    await Promise.allSettled(this.running);
    const entries = await Promise.allSettled(this.loaded.values());
    this.loaded.clear();
    for (const e of entries) if (e.status === "fulfilled") await e.value.model.dispose();
    if (this.llama) await (await this.llama).dispose();
  }
}

/**
 * The prompt with the model's BOS token first where its tokenizer adds one (tokenizer.ggml.add_bos_token,
 * e.g. Llama 3, DeepSeek-Coder), as the models were trained and llama.cpp's server prompts them; never twice.
 */
/**
 * A grammar for JSON that `schema` accepts, read the way tool-call-grammar.ts's grammarSchema reads
 * it (anyOf as oneOf, allOf merged): node-llama-cpp's JSON-schema grammar would otherwise write null
 * for those. A schema it cannot turn into a grammar is the client's error, reported on `param`.
 */
async function schemaGrammar(llama: Llama, schema: unknown, message: string, param: string): Promise<LlamaGrammar> {
  try {
    return await llama.createGrammarForJsonSchema(grammarSchema(schema) as never);
  } catch (error) {
    throw new EngineInputError(`${message}: ${(error as Error).message}`, param);
  }
}

function withBos(model: LlamaModel, tokens: Token[]): Token[] {
  const bos = model.tokens.bos;
  return model.tokens.shouldPrependBosToken && bos !== null && tokens[0] !== bos ? [bos, ...tokens] : tokens;
}

/** The FIM layout the model declares (see FimLayout); prefix-suffix-middle when it says nothing. */
export function fimLayout(model: LlamaModel): FimLayout {
  const fim = (model.fileInfo.metadata as { wisp?: { fim?: { layout?: unknown; suffix_first?: unknown } } }).wisp?.fim;
  if (fim?.layout === "suffix-middle-prefix") return fim.layout;
  return fim?.suffix_first === true ? "suffix-first" : "prefix-suffix-middle";
}

/** Prompt slices evaluated between checks for an abort: a warm-up of a long prompt stops soon after its client leaves. */
const warmUpSlice = 256;

/**
 * max_tokens 0: evaluates the prompt and generates nothing, so that later requests sharing the
 * prompt's start reuse it (an editor warms the cache when a file is opened).
 */
async function evaluateOnly(sequence: LlamaContextSequence, rest: readonly Token[], signal: AbortSignal, decoder?: BatchDecoder): Promise<ChoiceResult> {
  for (let at = 0; at < rest.length && !signal.aborted; at += warmUpSlice) {
    const slice = rest.slice(at, at + warmUpSlice);
    // Through the batch decoder where there is one: it evaluates prompts with the prompt threads.
    if (decoder) await decoder.decode(sequence, slice);
    else await sequence.evaluateWithoutGeneratingNewTokens(slice);
  }
  return { text: "", tokens: 0, finishReason: "length" };
}

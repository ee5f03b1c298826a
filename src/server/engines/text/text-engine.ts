// The text engine: one loaded model and context per model id, `parallel` sequences per context,
// requests queued FIFO for sequences, prompt prefixes reused across requests. What it does is in
// the parts it holds: model-loader.ts loads, infill-prompt.ts and chat-prompt.ts make prompts,
// json-grammars.ts makes grammars, generate-choices.ts generates.
import { LinkedAbortController } from "../../../core/base/cancellation";
import type { JinjaTemplateChatWrapper, LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { chatWrapper, renderToolChatPrompt, type ChatMessage, type ChatTool, type RenderedChat } from "./chat-prompt";
import { checkPrompt, generateChoices, noCounts, type ChoiceOptions, type EngineCounters, type ModelTables } from "./generate-choices";
import { healedInfill, infillPrompt, withBos } from "./infill-prompt";
import { answerOrCall, callGrammar, jsonGrammar } from "./json-grammars";
import { type LoadedModel, ModelLoader, type ModelLoaderOptions } from "./model-loader";
import { addUsage, NOTHING_USED, withPartialUsage } from "./partial-usage";
import { withSeed } from "./sampling";
import { TokenTexts, type TokenTableCounts } from "./token-texts";
import type { CallLayout } from "./tool-call-layout";
import type { ChoiceResult, FileLines, GenerationRequest, GenerationResult, TokenHealing } from "./types";
import { CharacterContinuations } from "./whole-characters";

export type TextEngineOptions = ModelLoaderOptions & ChoiceOptions;

export interface TextEngineMetrics extends EngineCounters {
  sequences: { total: number; busy: number; waiting: number };
  /** How the models' token tables (token healing's search, the line ends) were built. */
  tokenTables: TokenTableCounts;
}

export class TextEngine {
  private readonly loader: ModelLoader;
  private readonly tables: ModelTables;
  /** Each model's chat template, made once (see chatWrapper). */
  private readonly chatWrappers = new WeakMap<LlamaModel, JinjaTemplateChatWrapper>();
  /** Aborts the generations under way when the engine is disposed; `running` are they. */
  private readonly closing = new AbortController();
  private readonly running = new Set<Promise<GenerationResult>>();
  private readonly counters: EngineCounters = noCounts();

  constructor(readonly options: TextEngineOptions) {
    this.loader = new ModelLoader(options);
    const texts = new TokenTexts();
    this.tables = { texts, continuations: new CharacterContinuations(texts) };
  }

  /** Loads (once) the GGUF at `path` under `id`. */
  async model(id: string, path: string): Promise<LlamaModel> {
    return (await this.load(id, path)).model;
  }

  /** The loaded model, whose token tables are built after its load, off the requests' path (see TokenTexts.prepare). */
  private async load(id: string, path: string): Promise<LoadedModel> {
    const loaded = await this.loader.load(id, path);
    void this.tables.texts.prepare(loaded.model);
    return loaded;
  }

  /** The tokens a prompt and its completion may take together on the model (its sequences' context). */
  async contextSize(id: string, path: string): Promise<number> {
    return (await this.load(id, path)).pool.context.contextSize;
  }

  /** Which llama.cpp binary runs the models, for the server's start-up lines. */
  describeBinary(): Promise<string> {
    return this.loader.describeBinary();
  }

  /**
   * Completion prompts may spell out special tokens (a client's own FIM template, e.g.
   * "<|fim_prefix|>...<|fim_middle|>"), as llama.cpp's server and vLLM accept: parse them.
   */
  tokenizePrompt(model: LlamaModel, text: string): Token[] {
    return withBos(model, model.tokenize(text, true));
  }

  toolChatPrompt(model: LlamaModel, messages: readonly ChatMessage[], tools: readonly ChatTool[]): RenderedChat {
    let wrapper = this.chatWrappers.get(model);
    if (!wrapper) {
      wrapper = chatWrapper(model);
      this.chatWrappers.set(model, wrapper);
    }
    return renderToolChatPrompt(model, messages, tools, wrapper);
  }

  /** The FIM prompt for `prefix` and `suffix`, fitted to the context (see infillPrompt). */
  infillPrompt(model: LlamaModel, prefix: string, suffix: string, maxTokens = 0): Token[] {
    return infillPrompt(model, this.options.contextSize, prefix, suffix, maxTokens);
  }

  /** The FIM prompt with token healing where the model's layout allows it (see healedInfill). */
  healedInfill(model: LlamaModel, prefix: string, suffix: string, maxTokens = 0): { prompt: Token[]; heal?: TokenHealing } {
    return healedInfill(model, this.options.contextSize, prefix, suffix, maxTokens);
  }

  async jsonGrammar(id: string, path: string, schema?: { schema: object; param: string }): Promise<LlamaGrammar> {
    await this.load(id, path);
    return jsonGrammar(await this.loader.binary(), schema);
  }

  /** `grammar`, or else a tool call's `marker` (see json-grammars.ts). */
  async answerOrCallGrammar(grammar: LlamaGrammar, marker: string): Promise<LlamaGrammar> {
    return answerOrCall(await this.loader.binary(), grammar, marker);
  }

  /** A grammar for one call to one of `tools` in `layout` (see tool-call-grammar.ts). */
  async toolCallGrammar(id: string, path: string, layout: CallLayout, tools: readonly ChatTool[]): Promise<LlamaGrammar> {
    await this.load(id, path);
    return callGrammar(await this.loader.binary(), layout, tools);
  }

  /**
   * Generates the request's choices. Disposing the engine aborts the generation, and waits for it:
   * llama.cpp crashes when a model is freed in the middle of a decode.
   */
  generate(id: string, path: string, request: GenerationRequest): Promise<GenerationResult> {
    if (this.closing.signal.aborted) return Promise.reject(new Error("the text engine is shut down"));
    // Not AbortSignal.any: a signal it makes stays reachable from the long-lived closing signal (with
    // the pool's listener, all it holds) until that aborts, which leaked about 1.5 KiB per request.
    const link = new LinkedAbortController(request.signal, this.closing.signal);
    const run = this.load(id, path).then((loaded) => generateChoices(loaded, { ...request, sampling: withSeed(request.sampling), signal: link.signal }, this.options, this.tables, this.counters));
    this.running.add(run);
    const settled = () => {
      this.running.delete(run);
      link.dispose();
    };
    run.then(settled, settled);
    return run;
  }

  /**
   * Several prompts in one request (OpenAI's completions batching): each gets `n` choices, numbered
   * prompt by prompt (choice i of prompt p is choice p * n + i), generated one prompt after another.
   * Every prompt is checked before any is generated: a long one last in the list would otherwise
   * fail only after the others' tokens were spent. A later failure still carries what the earlier
   * prompts used (see partial-usage.ts).
   */
  async generateEach(
    id: string,
    path: string,
    request: Omit<GenerationRequest, "prompt" | "heal" | "file">,
    prompts: readonly (readonly Token[])[],
    heals: readonly (TokenHealing | undefined)[] = [],
    files: readonly (FileLines | undefined)[] = [],
  ): Promise<GenerationResult> {
    const asked = prompts.map((prompt, p): GenerationRequest => ({
      ...request,
      prompt,
      heal: heals[p],
      file: files[p],
      onPromptReady: p === 0 ? request.onPromptReady : undefined,
      onText: request.onText && ((choice, text, logprobs) => request.onText!(p * request.n + choice, text, logprobs)),
    }));
    const loaded = await this.load(id, path);
    asked.forEach((r, p) => checkPrompt(loaded, r, prompts.length > 1 ? `${r.promptParam}[${p}]` : undefined));
    let used = NOTHING_USED;
    const choices: ChoiceResult[] = [];
    for (const r of asked) {
      if (request.signal.aborted) break;
      const result = await this.generate(id, path, r).catch((error: unknown) => {
        throw choices.length > 0 ? withPartialUsage(error, used) : error;
      });
      choices.push(...result.choices);
      used = addUsage(used, result);
    }
    return { ...used, choices };
  }

  metrics(): TextEngineMetrics {
    const pools = [...this.loader.pools];
    return {
      ...this.counters,
      sequences: {
        total: pools.reduce((a, p) => a + p.size, 0),
        busy: pools.reduce((a, p) => a + p.busy, 0),
        waiting: pools.reduce((a, p) => a + p.waiting, 0),
      },
      tokenTables: { ...this.tables.texts.counts },
    };
  }

  async dispose(): Promise<void> {
    this.closing.abort();
    await Promise.allSettled(this.running);
    await this.loader.dispose();
  }
}

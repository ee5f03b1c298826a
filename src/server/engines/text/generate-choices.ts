// One request's choices on the sequences of its model: the prompt checked against the context,
// sequences taken from the pool (n above --parallel takes turns on them), each choice generated the
// way the request allows (a line copied from the file, the direct decoder, or node-llama-cpp's own
// loop for grammars and log probabilities), and the engine's counters brought up to date.
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { EngineInputError } from "../../engine-input-error";
import { PROMPT_SLICE, type BatchDecoder } from "./batch-decoder";
import { runDirectChoice } from "./direct-choice";
import { runLineChoice } from "./line-choice";
import type { LoadedModel } from "./model-loader";
import { alignToPrompt, runChoice } from "./run-choice";
import { runScopedChoice } from "./scoped-choice";
import type { TokenTexts } from "./token-texts";
import type { ChoiceResult, FileLines, GenerationRequest, GenerationResult, PromptStats } from "./types";
import type { CharacterContinuations } from "./whole-characters";

export interface ChoiceOptions {
  /** Reuse each sequence's evaluated prompt prefix (false only to measure what it saves). */
  prefixReuse: boolean;
  /** Tokens predicted per step by input lookup (speculative decoding from the prompt); 0: off. */
  inputLookup?: number;
  /** Answer greedy one-line infill requests with a line copied from the file where it offers some (line-choice.ts); default true. */
  lineCandidates?: boolean;
  /**
   * Where the file offers lines, the model's own line competes with them by the same likelihood
   * instead of being skipped: right for a model that writes lines as well as it judges copies
   * (the 25M default: 21.3% exact on the bench's dev half against 19.1%), wrong for one that
   * writes worse (the 7.5M model before it: 13.3% against 15.9%). Default false here; the server's
   * config says true (--no-own-line).
   */
  ownLine?: boolean;
}

/** What the engine counts over all requests (its metrics, beside its sequences). */
export interface EngineCounters {
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
}

export const noCounts = (): EngineCounters => ({ requests: 0, linesCopied: 0, aborted: 0, tokensAfterAbort: 0, promptTokensEvaluated: 0, promptTokensCached: 0, completionTokens: 0, lookupPredicted: 0, lookupAccepted: 0 });

/** What generation reads per model, made once (see TokenTexts, CharacterContinuations). */
export interface ModelTables {
  texts: TokenTexts;
  continuations: CharacterContinuations;
}

/** What a request may take from its file (see runLineChoice, runScopedChoice): only greedy, one line, one choice, nothing else asked of the tokens. */
function usableFile(request: GenerationRequest, options: ChoiceOptions): FileLines | undefined {
  const s = request.sampling;
  const greedy = s.temperature === 0 && s.logitBias.size === 0 && s.presencePenalty === 0 && s.frequencyPenalty === 0 && s.grammar === undefined;
  const plain = request.n === 1 && request.topLogprobs === undefined && request.stop.includes("\n");
  return options.lineCandidates !== false && greedy && plain ? request.file : undefined;
}

/**
 * OpenAI's code and wording: clients (LiteLLM, so Aider; LangChain) match on them to trim the
 * conversation. The completion needs one token at least; max_tokens beyond the room left is clipped.
 */
function contextLengthExceeded(request: GenerationRequest, limit: number, which: string): EngineInputError {
  const prompt = request.prompt.length;
  const completion = Math.min(request.maxTokens, 1);
  return new EngineInputError(
    `This model's maximum context length is ${limit} tokens. However, you requested ${prompt + completion} tokens (${prompt} in ${which}, ${completion} in the completion). Please reduce the length of ${which}.`,
    request.promptParam,
    "context_length_exceeded",
  );
}

/**
 * The request as it is generated: log probabilities and grammars take node-llama-cpp's own
 * evaluation loop, which cannot heal, so there the healed token goes back on the prompt.
 */
function asGenerated({ decoder }: LoadedModel, request: GenerationRequest): { request: GenerationRequest; direct?: BatchDecoder } {
  const direct = request.topLogprobs === undefined && request.sampling.grammar === undefined ? decoder : undefined;
  if (request.heal && !direct) request = { ...request, prompt: [...request.prompt, request.heal.token], heal: undefined };
  return { request, direct };
}

/**
 * Throws the 400 for a prompt that is empty or leaves no room in the context for one token.
 * `which` names it in the message ("prompt[1]" of a list; "the prompt" alone).
 */
export function checkPrompt(loaded: LoadedModel, request: GenerationRequest, which?: string): void {
  const generated = asGenerated(loaded, request).request;
  const limit = loaded.pool.context.contextSize;
  if (generated.prompt.length === 0) throw new EngineInputError(`${which ?? "the prompt"} is empty`, request.promptParam);
  if (generated.prompt.length + Math.min(generated.maxTokens, 1) > limit) throw contextLengthExceeded(generated, limit, which ?? `the ${request.promptParam}`);
}

export async function generateChoices(
  loaded: LoadedModel,
  asked: GenerationRequest,
  options: ChoiceOptions,
  tables: ModelTables,
  counters: EngineCounters,
): Promise<GenerationResult> {
  const { model, pool, decoder } = loaded;
  const file = usableFile(asked, options);
  const lines = file?.lines.length ? file.lines : undefined;
  checkPrompt(loaded, asked);
  const { request, direct } = asGenerated(loaded, asked);
  const healingBias = request.heal ? tables.texts.healingBias(model, request.sampling.logitBias, request.heal.text) : undefined;
  const limit = pool.context.contextSize;
  // The own line needs the direct native step (runDirectChoice) to be generated beside the copies.
  const ownLine = lines !== undefined && options.ownLine === true && direct !== undefined;
  let copied = false;
  counters.requests++;
  // n above --parallel: the choices take turns on the sequences this request holds; the prompt
  // is evaluated once per sequence, later rounds reuse it.
  const sequences = await pool.acquire(Math.min(request.n, pool.size), request.prompt, request.signal);
  try {
    const maxTokens = Math.min(request.maxTokens, limit - request.prompt.length);
    const prompt: PromptStats = { evaluated: 0, cached: 0 };
    const choices: ChoiceResult[] = [];
    for (let first = 0; first < request.n && !request.signal.aborted; first += sequences.length) {
      const round = sequences.slice(0, Math.min(sequences.length, request.n - first));
      const aligned = await Promise.all(round.map((s) => alignToPrompt(s, request.prompt, options.prefixReuse)));
      if (first === 0) {
        // With the copies alone, a line the file offers once is the answer as it is: the prompt is not evaluated for it.
        prompt.evaluated = lines?.length === 1 && !ownLine ? 0 : aligned.reduce((a, s) => a + s.evaluated, 0);
        prompt.cached = aligned.reduce((a, s) => a + s.cached, 0);
      }
      if (maxTokens === 0) {
        choices.push(...(await Promise.all(round.map((s, i) => evaluateOnly(s, aligned[i]!.rest, request.signal, decoder)))));
        if (first === 0) request.onPromptReady?.(prompt);
      } else {
        if (first === 0) request.onPromptReady?.(prompt);
        const run = async (s: LlamaContextSequence, i: number): Promise<ChoiceResult> => {
          const choiceRequest = { ...request, maxTokens };
          const rest = aligned[i]!.rest;
          if (lines && !ownLine) {
            copied = true;
            return runLineChoice(model, s, decoder, choiceRequest, first + i, rest, lines, tables.texts.lineEnds(model));
          }
          if (!direct) return runChoice(model, s, choiceRequest, first + i, rest, tables.continuations);
          const generate = (r: GenerationRequest, from: Token[], bias?: ReadonlyMap<Token, number>) =>
            runDirectChoice(model, s, direct, r, first + i, from, options.inputLookup ?? 0, bias);
          const own = (r: GenerationRequest) =>
            file ? runScopedChoice(generate, s, r, first + i, rest, healingBias, file.outOfScope, () => tables.texts.of(model)) : generate(r, rest, healingBias);
          if (!lines) return own(choiceRequest);
          // The model's own line, held back, competes with the file's lines by the same likelihood:
          // a model that writes better lines than it is offered keeps them (see ownLine).
          const mine = await own({ ...choiceRequest, onText: undefined });
          const offered = mine.text !== "" && mine.finishReason === "stop" && !lines.includes(mine.text) ? [...lines, mine.text] : lines;
          const again = await alignToPrompt(s, request.prompt);
          const chosen = await runLineChoice(model, s, decoder, choiceRequest, first + i, again.rest, offered, tables.texts.lineEnds(model));
          copied = chosen.option < lines.length;
          // Usage and the metrics count what the model generated for its own line, won or not (its
          // input lookup, tokens after an abort), and a copy's tokens as before.
          return { ...chosen, tokens: mine.tokens + (copied ? chosen.tokens : 0), lookup: mine.lookup, afterAbort: mine.afterAbort };
        };
        choices.push(...(await Promise.all(round.map(run))));
      }
    }
    const completionTokens = choices.reduce((sum, c) => sum + c.tokens, 0);
    if (copied) counters.linesCopied++;
    for (const c of choices) {
      counters.lookupPredicted += c.lookup?.predicted ?? 0;
      counters.lookupAccepted += c.lookup?.accepted ?? 0;
    }
    counters.promptTokensEvaluated += prompt.evaluated;
    counters.promptTokensCached += prompt.cached;
    counters.completionTokens += completionTokens;
    const tokensAfterAbort = choices.reduce((sum, c) => sum + (c.afterAbort ?? 0), 0);
    counters.tokensAfterAbort += tokensAfterAbort;
    if (request.signal.aborted) counters.aborted++;
    return { choices, promptTokens: request.prompt.length, completionTokens, prompt, tokensAfterAbort };
  } finally {
    pool.release(sequences);
  }
}

/**
 * max_tokens 0: evaluates the prompt and generates nothing, so that later requests sharing the
 * prompt's start reuse it (an editor warms the cache when a file is opened).
 */
async function evaluateOnly(sequence: LlamaContextSequence, rest: readonly Token[], signal: AbortSignal, decoder?: BatchDecoder): Promise<ChoiceResult> {
  for (let at = 0; at < rest.length && !signal.aborted; at += PROMPT_SLICE) {
    const slice = rest.slice(at, at + PROMPT_SLICE);
    // Through the batch decoder where there is one: it evaluates prompts with the prompt threads.
    if (decoder) await decoder.decode(sequence, slice);
    else await sequence.evaluateWithoutGeneratingNewTokens(slice);
  }
  return { text: "", tokens: 0, finishReason: "length" };
}

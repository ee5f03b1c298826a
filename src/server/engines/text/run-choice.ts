// Generates one choice on one sequence: reuses the sequence's cached prefix, then samples until
// a stop string, an end-of-generation token, max tokens or an abort.
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { continuation, IncrementalText } from "./incremental-text";
import { logprobEntry } from "./logprobs";
import { evaluateOptions } from "./sampling";
import { scanForStop } from "./stop-detector";
import type { ChoiceResult, FinishReason, GenerationRequest, PromptStats, TokenLogprob } from "./types";
import type { CharacterContinuations } from "./whole-characters";

/** Erases what differs from `prompt` and returns the tokens still to evaluate (at least one). */
export async function alignToPrompt(sequence: LlamaContextSequence, prompt: readonly Token[], reuse = true): Promise<PromptStats & { rest: Token[] }> {
  // The last prompt token is always evaluated again: its logits are what the first sample needs.
  const shared = reuse ? sequence.compareContextTokens(prompt as Token[]).firstDifferentIndex : 0;
  const keep = Math.min(shared, prompt.length - 1);
  if (keep < sequence.nextTokenIndex) {
    await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  }
  return { cached: keep, evaluated: prompt.length - keep, rest: prompt.slice(keep) };
}

export async function runChoice(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  request: GenerationRequest,
  choice: number,
  rest: Token[],
  continuations?: CharacterContinuations,
): Promise<ChoiceResult> {
  const generated: Token[] = [];
  const logprobs: TokenLogprob[] = [];
  const wantLogprobs = request.topLogprobs !== undefined;
  const decoded = new IncrementalText(model, request.prompt);
  // Under a grammar, a character once begun is finished as UTF-8 (see whole-characters.ts).
  const ruledOut = request.sampling.grammar && continuations ? () => continuations.after(model, decoded.pending()) : undefined;
  const options = evaluateOptions(model, request.sampling, choice, generated, ruledOut);
  // Probabilities cost about half the decode speed: only ask for them when the client did.
  const stream = wantLogprobs
    ? sequence.evaluateWithMetadata(rest, { probabilities: true }, options)
    : sequence.evaluate(rest, options);
  let emitted = "";
  let emittedLogprobs = 0;
  const emit = (text: string) => {
    if (!request.onText || (text.length === emitted.length && logprobs.length === emittedLogprobs)) return;
    request.onText(choice, text.slice(emitted.length), logprobs.slice(emittedLogprobs));
    emitted = text;
    emittedLogprobs = logprobs.length;
  };
  let finishReason: FinishReason = "stop";
  let stopped = false;
  let afterAbort = 0;
  try {
    if (request.maxTokens > 0) {
      for await (const item of stream) {
        if (request.signal.aborted) {
          // node-llama-cpp generates a token only when asked for it: this one is the last.
          afterAbort = 1;
          break;
        }
        const token = typeof item === "number" ? item : item.token;
        generated.push(token);
        if (typeof item !== "number" && "probabilities" in item) {
          logprobs.push(logprobEntry(model, token, item.probabilities, request.topLogprobs ?? 0, request.sampling.temperature));
        }
        const scan = scanForStop(decoded.push(token), request.stop);
        stopped = scan.stopped;
        if (!stopped && generated.length >= request.maxTokens) finishReason = "length";
        if (stopped || finishReason === "length") break;
        emit(scan.visible);
      }
    } else {
      finishReason = "length";
    }
  } finally {
    await stream.return();
  }
  // After the prompt, as the streamed text was: the two must agree (see IncrementalText).
  const full = continuation(model, generated, request.prompt);
  // Nothing is held back any more: a partial stop-string match at the end is plain text.
  const ended = stopped ? scanForStop(full, request.stop) : undefined;
  const text = ended?.visible ?? full;
  if (!request.signal.aborted) emit(text);
  return { text, tokens: generated.length, finishReason, logprobs: wantLogprobs ? logprobs : undefined, afterAbort , stopString: ended?.stop };
}

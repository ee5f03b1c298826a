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
  // A token's logprob goes with the text it is part of: one of text held back (the start of a
  // stop string) is not sent yet, nor listed at all when the answer stops there.
  const logprobsOf = (text: string, whole: string) => (text.length === whole.length ? logprobs.length : Math.min(logprobs.length, tokensCovering(model, generated, request.prompt, text)));
  let emitted = "";
  let emittedLogprobs = 0;
  const emit = (text: string, upTo: number) => {
    if (!request.onText || (text.length === emitted.length && upTo <= emittedLogprobs)) return;
    request.onText(choice, text.slice(emitted.length), logprobs.slice(emittedLogprobs, upTo));
    emitted = text;
    emittedLogprobs = Math.max(emittedLogprobs, upTo);
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
        const whole = decoded.push(token);
        const scan = scanForStop(whole, request.stop);
        stopped = scan.stopped;
        if (!stopped && generated.length >= request.maxTokens) finishReason = "length";
        if (stopped || finishReason === "length") break;
        if (request.onText) emit(scan.visible, wantLogprobs ? logprobsOf(scan.visible, whole) : 0);
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
  const kept = wantLogprobs ? logprobsOf(text, full) : 0;
  if (!request.signal.aborted) emit(text, kept);
  return { text, tokens: generated.length, finishReason, logprobs: wantLogprobs ? logprobs.slice(0, kept) : undefined, afterAbort , stopString: ended?.stop };
}

/**
 * How many of `tokens` it takes for their text to hold `text` (a prefix of theirs): the fewest
 * whose text starts with it (a character split over tokens needs all of them).
 */
function tokensCovering(model: LlamaModel, tokens: readonly Token[], prompt: readonly Token[], text: string): number {
  let [low, high] = [0, tokens.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (continuation(model, tokens.slice(0, mid), prompt).startsWith(text)) high = mid;
    else low = mid + 1;
  }
  return low;
}

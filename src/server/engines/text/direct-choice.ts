// Generates one choice through the batch decoder: one native decode per step for all generating
// sequences, several steps per native call for a sequence generating alone, and (with input lookup)
// several tokens guessed from the prompt checked per decode. The same tokens come out as through
// node-llama-cpp's evaluation loop: each token is still sampled after exactly the tokens before it.
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { PROMPT_SLICE, type BatchDecoder } from "./batch-decoder";
import { continuation, IncrementalText } from "./incremental-text";
import { lookupPrediction } from "./prompt-lookup";
import { evaluateOptions } from "./sampling";
import { scanForStop } from "./stop-detector";
import type { ChoiceResult, FinishReason, GenerationRequest } from "./types";

export async function runDirectChoice(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  decoder: BatchDecoder,
  request: GenerationRequest,
  choice: number,
  rest: Token[],
  inputLookup: number,
  /** With request.heal: the logit bias of the first step, which only lets tokens starting with the healed text through. */
  healingBias?: ReadonlyMap<Token, number>,
): Promise<ChoiceResult> {
  const generated: Token[] = [];
  const options = evaluateOptions(model, request.sampling, choice, generated);
  // Penalties change the sampler with every token: a guessed token could not be checked by the sampler it would really meet.
  const lookup = options.repeatPenalty ? 0 : inputLookup;
  const sampler = decoder.sampler(model, sequence, options);
  const healed = request.heal && healingBias ? request.heal.text.length : 0;
  let healing = healed > 0 ? decoder.sampler(model, sequence, evaluateOptions(model, { ...request.sampling, logitBias: healingBias! }, choice, generated)) : undefined;
  // The healed text was the prompt's: what the first token repeats of it is not the answer's.
  const answer = (text: string) => text.slice(healed);
  const leave = decoder.enter();
  const decoded = new IncrementalText(model, request.prompt);
  const lookupStats = { predicted: 0, accepted: 0 };
  let emitted = "";
  const emit = (text: string) => {
    if (!request.onText || text.length === emitted.length) return;
    request.onText(choice, text.slice(emitted.length), []);
    emitted = text;
  };
  let finishReason: FinishReason = "stop";
  let stopped = false;
  let input = rest;
  let visible = "";
  let afterAbort = 0;
  try {
    // The prompt's start in slices, each after a check for an abort; its last slice goes with the first sample.
    while (input.length > PROMPT_SLICE && !request.signal.aborted) {
      await decoder.decode(sequence, input.slice(0, PROMPT_SLICE));
      input = input.slice(PROMPT_SLICE);
    }
    generation: while (request.maxTokens > 0 && !request.signal.aborted) {
      const guess = lookup > 0 && !healing ? lookupPrediction([...sequence.contextTokens, ...input], Math.min(lookup, request.maxTokens - generated.length - 1)) : [];
      // A run of steps in one call (see BatchDecoder.generate) needs each token's sampler settled
      // in advance, so not with penalties; with input lookup, every step looks for guesses instead.
      const run = lookup === 0 && !healing && !options.repeatPenalty && input.length === 1;
      const sampled = run
        ? await decoder.generate(sequence, input[0]!, sampler.sampler, request.maxTokens - generated.length, request.signal)
        : await decoder.decode(sequence, [...input, ...guess], {
            sampler: (healing ?? sampler).sampler,
            samples: guess.length + 1,
            accept: (i, token) => i < guess.length && token === guess[i],
          });
      healing?.dispose();
      healing = undefined;
      if (request.signal.aborted) {
        // The client left during this call: what it generated goes nowhere.
        afterAbort += sampled.length;
        break;
      }
      // Guesses confirmed: the tokens sampled before the last one, where there were guesses (a run samples several without any).
      const accepted = Math.min(sampled.length - 1, guess.length);
      if (accepted < guess.length) {
        // The guesses after the first wrong one were evaluated for nothing: drop them from the sequence.
        const end = sequence.nextTokenIndex;
        await sequence.eraseContextTokenRanges([{ start: end - (guess.length - accepted), end }]);
      }
      lookupStats.predicted += guess.length;
      lookupStats.accepted += accepted;
      for (const token of sampled) {
        if (model.isEogToken(token)) break generation;
        generated.push(token);
        sampler.update();
        const scan = scanForStop(answer(decoded.push(token)), request.stop);
        stopped = scan.stopped;
        if (stopped) break generation;
        if (generated.length >= request.maxTokens) {
          finishReason = "length";
          break generation;
        }
        visible = scan.visible;
      }
      // One piece of text per step, however many tokens it generated.
      emit(visible);
      input = [sampled.at(-1)!];
    }
    if (request.maxTokens === 0) finishReason = "length";
  } finally {
    leave();
    sampler.dispose();
    healing?.dispose();
  }
  // After the prompt, as the streamed text was: the two must agree (see IncrementalText).
  const full = answer(continuation(model, generated, request.prompt));
  // Nothing is held back any more: a partial stop-string match at the end is plain text.
  const ended = stopped ? scanForStop(full, request.stop) : undefined;
  const text = ended?.visible ?? full;
  if (!request.signal.aborted) emit(text);
  return { text, tokens: generated.length, finishReason, lookup: lookupStats, afterAbort , stopString: ended?.stop };
}

// The model's own line for a greedy one-line fill-in-the-middle answer, checked as copied lines are
// (out-of-scope-names.ts): a small model copies too, and writes `a + b;` from `add(a, b)` into
// `clamp(value, low, high)` by itself. So the line is held back until it ends (ghost text shows a
// line only once it has ended anyway); one that uses another function's parameters or locals is
// generated again with those names' tokens barred, and if that line fails too, the answer is
// empty: no suggestion rather than one that cannot compile.
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { alignToPrompt } from "./run-choice";
import type { ChoiceResult, GenerationRequest } from "./types";

/** One generation of the choice on `sequence` (runDirectChoice), from the prompt's `rest`. */
type Generate = (request: GenerationRequest, rest: Token[], healingBias?: ReadonlyMap<Token, number>) => Promise<ChoiceResult>;

export async function runScopedChoice(
  generate: Generate,
  sequence: LlamaContextSequence,
  request: GenerationRequest,
  choice: number,
  rest: Token[],
  healingBias: ReadonlyMap<Token, number> | undefined,
  outOfScope: (line: string) => readonly string[],
  /** Each token's text (a name's whole-word tokens are barred), read only for a line out of scope. */
  tokenTexts: () => readonly string[],
): Promise<ChoiceResult> {
  const quiet = { ...request, onText: undefined };
  const first = await generate(quiet, rest, healingBias);
  let result = first;
  const names = outOfScope(first.text);
  if (names.length > 0 && !request.signal.aborted) {
    const barred = new Map<Token, number>();
    tokenTexts().forEach((text, token) => {
      if (names.includes(text.trim())) barred.set(token as Token, -Infinity);
    });
    // A name of several tokens cannot be barred this way: generating again would give the same line.
    let second: ChoiceResult | undefined;
    if (barred.size > 0) {
      const again = await alignToPrompt(sequence, request.prompt);
      const sampling = { ...request.sampling, logitBias: new Map([...request.sampling.logitBias, ...barred]) };
      const healing = healingBias && new Map([...healingBias, ...barred]);
      second = await generate({ ...quiet, sampling }, again.rest, healing);
    }
    result = {
      ...(second ?? first),
      text: second && outOfScope(second.text).length === 0 ? second.text : "",
      tokens: first.tokens + (second?.tokens ?? 0),
      lookup: sumLookups(first.lookup, second?.lookup),
      afterAbort: (first.afterAbort ?? 0) + (second?.afterAbort ?? 0),
    };
  }
  if (!request.signal.aborted && result.text !== "") request.onText?.(choice, result.text, []);
  return result;
}

const sumLookups = (a: ChoiceResult["lookup"], b: ChoiceResult["lookup"]) => ({
  predicted: (a?.predicted ?? 0) + (b?.predicted ?? 0),
  accepted: (a?.accepted ?? 0) + (b?.accepted ?? 0),
});

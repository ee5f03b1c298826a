// The Wisp extension's requests at a pause, against the local server: its prompt layout (the
// request plan, with the server applying the model's FIM tokens, the prefix window that keeps its
// start while the user types, the short suffix, extra context from its ring of recently opened
// files), and its cancellation of a request that a newer keystroke supersedes.
import { ContextRing } from "../../src/core/completion/context-ring";
import { defaultBudget } from "../../src/core/completion/context";
import { planRequest } from "../../src/core/completion/request-plan";
import type { CompletionSettings } from "../../src/core/completion/types";
import type { LocalServer } from "../typing/local-server";
import { segmentInput } from "../typing/replay";
import type { EditorState, PauseClient } from "./pause-replay";
import { streamedAnswer } from "./streamed-answer";

const lineSource = (text: string) => {
  const lines = text.split("\n");
  return { lineCount: lines.length, lineText: (line: number) => lines[line]! };
};
const lineOf = (state: EditorState) => state.text.slice(0, state.cursor).split("\n").length - 1;

/** `lineTokens`: the first line's length cap; `logitBias`: tokens neither side may generate. */
export function wispPauseClient(server: LocalServer, lineTokens: number, logitBias: Record<string, number>): PauseClient {
  const ring = new ContextRing();
  const settings: CompletionSettings = { model: server.model, template: "auto", serverFim: true, maxTokens: lineTokens, debounceMs: 0 };
  let controller: AbortController | undefined;
  let sent = 0;
  return {
    get sent() {
      return sent;
    },
    opened(state) {
      const input = segmentInput(state.segment, state.text, state.cursor);
      ring.addAround(input.uri, input.path, lineSource(state.text), lineOf(state));
    },
    keystroke() {
      controller?.abort();
    },
    async pause(state) {
      controller = new AbortController();
      sent++;
      const input = segmentInput(state.segment, state.text, state.cursor);
      const { request } = planRequest(input, settings, ring.chunksFor(input.uri, defaultBudget.extraChars), defaultBudget);
      const body = { model: request.model, prompt: request.prompt, suffix: request.suffix, max_tokens: request.maxTokens, temperature: 0, stop: request.stop, logit_bias: logitBias };
      return (await streamedAnswer(`${server.baseUrl}/completions`, server.apiKey, body, controller.signal))?.ms;
    },
  };
}

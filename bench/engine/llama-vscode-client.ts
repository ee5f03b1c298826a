// llama.vscode's completion requests (ggml-org/llama.vscode, src/completion.ts and
// src/llama-server.ts, its default settings) against llama-server's /infill: the 256 lines before
// the cursor's line as input_prefix, the line up to the cursor as prompt (empty when only
// indentation), the rest of the line and 64 more as input_suffix, its ring of extra context (a
// 64-line chunk around the cursor of each opened file, 16 at most) as input_extra, sent to the
// server without generating when it changes, cache_prompt; no request while more than 8
// characters follow the cursor. It never cancels a request: a new one waits for the running one.
import type { PauseClient } from "./pause-replay";
import type { LlamaServer } from "./llama-server";
import { streamedAnswer } from "./streamed-answer";

const N_PREFIX = 256;
const N_SUFFIX = 64;
const MAX_LINE_SUFFIX = 8;
const RING_CHUNKS = 16;
const RING_CHUNK_LINES = 64;

/** `lineTokens` caps n_predict (its default 128) at a line's length, as the other side; `bannedTokens` neither side may generate. */
export function llamaVscodeClient(server: LlamaServer, lineTokens: number, bannedTokens: readonly number[]): PauseClient {
  const infill = server.baseUrl.replace(/\/v1$/, "/infill");
  const ring: { filename: string; text: string }[] = [];
  const never = new AbortController().signal;
  let running: Promise<unknown> = Promise.resolve();
  let sent = 0;
  const send = (body: Record<string, unknown>) => {
    const answer = running.then(() => streamedAnswer(infill, "none", { ...body, cache_prompt: true, t_max_prompt_ms: 500, logit_bias: bannedTokens.map((id) => [id, false]) }, never));
    running = answer.catch(() => undefined);
    return answer;
  };
  return {
    get sent() {
      return sent;
    },
    opened(state) {
      const lines = state.text.split("\n");
      const line = state.text.slice(0, state.cursor).split("\n").length - 1;
      const start = Math.max(0, Math.min(line - RING_CHUNK_LINES / 2, lines.length - RING_CHUNK_LINES));
      ring.push({ filename: state.segment.path, text: lines.slice(start, start + RING_CHUNK_LINES).join("\n") + "\n" });
      if (ring.length > RING_CHUNKS) ring.shift();
      // Its ring update: the extra context evaluated ahead of the next request.
      void send({ input_prefix: "", input_suffix: "", input_extra: [...ring], prompt: "", n_predict: 0, samplers: [], t_max_predict_ms: 1 });
    },
    keystroke() {},
    async pause(state) {
      const lines = state.text.split("\n");
      const line = state.text.slice(0, state.cursor).split("\n").length - 1;
      const lineStart = state.text.lastIndexOf("\n", state.cursor - 1) + 1;
      const lineText = lines[line]!;
      const linePrefix = lineText.slice(0, state.cursor - lineStart);
      const lineSuffix = lineText.slice(state.cursor - lineStart);
      if (lineSuffix.length > MAX_LINE_SUFFIX) return undefined;
      const started = performance.now();
      sent++;
      await send({
        input_prefix: lines.slice(Math.max(0, line - N_PREFIX), line).join("\n") + "\n",
        input_suffix: `${lineSuffix}\n${lines.slice(line + 1, line + 1 + N_SUFFIX).join("\n")}\n`,
        input_extra: [...ring],
        prompt: /^[ \t]*$/.test(linePrefix) ? "" : linePrefix,
        n_predict: lineTokens,
        n_indent: lineText.length - lineText.trimStart().length,
        top_k: 40,
        top_p: 0.99,
        samplers: ["top_k", "top_p", "infill"],
        t_max_predict_ms: 500,
      });
      return performance.now() - started;
    },
  };
}
